import { useId, useRef, useState, type SubmitEvent } from 'react';
import { isApiError } from '../api.ts';
import { ROLES, type Role } from '../auth-api.ts';
import type { RolesCopy, TeamCopy } from '../copy.ts';
import { useModal } from '../modal.ts';
import { invite, type Member } from './team-api.ts';

interface Props {
  open: boolean;
  token: string;
  copy: TeamCopy;
  roles: RolesCopy;
  onInvited: (member: Member) => void;
  onClose: () => void;
  onFailed: (error: unknown) => void;
}

/** A loose shape check that spares a call; the server decides what an address is. */
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * The owner's invitation form in a modal `<dialog>`: an address and a role, each role with what it may do.
 * Focus starts in the address field and returns to the opener; Escape closes it.
 */
export function InviteDialog({ open, token, copy, roles, onInvited, onClose, onFailed }: Props) {
  const id = useId();
  const email = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useModal(open, email, () => setError(null));

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const address = String(form.get('email') ?? '').trim();
    const role = String(form.get('role') ?? 'editor') as Role;
    if (!looksLikeEmail(address)) {
      setError(copy.email_invalid);
      email.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const member = await invite(token, address, role);
      event.currentTarget?.reset();
      onInvited(member);
    } catch (failure) {
      if (isApiError(failure, 409)) {
        setError(copy.email_taken);
        email.current?.focus();
      } else if (isApiError(failure, 400)) {
        setError(copy.email_invalid);
        email.current?.focus();
      } else onFailed(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="admin-dialog admin-dialog--form"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form className="admin-dialog__body" noValidate onSubmit={submit}>
        <h2 id={`${id}-title`} className="admin-dialog__title">
          {copy.dialog_title}
        </h2>
        <p id={`${id}-intro`}>{copy.dialog_intro}</p>
        <div className="admin-field">
          <label htmlFor={`${id}-email`} className="admin-label">
            {copy.email}
          </label>
          {error && (
            <p id={`${id}-error`} className="admin-field-error" role="alert">
              {error}
            </p>
          )}
          <input
            ref={email}
            id={`${id}-email`}
            name="email"
            type="email"
            className="admin-input"
            required
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <fieldset className="admin-choice">
          <legend className="admin-label">{copy.role}</legend>
          {ROLES.map((role) => (
            <label key={role} className="admin-choice__option">
              <input type="radio" name="role" value={role} defaultChecked={role === 'editor'} />
              <span>
                <strong>{roles[role]}</strong>
                <span className="admin-choice__hint">{roles[`${role}_hint`]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="admin-dialog__actions">
          <button type="button" className="admin-button" onClick={onClose}>
            {copy.cancel}
          </button>
          <button type="submit" className="admin-button admin-button--primary" aria-disabled={busy}>
            {busy ? copy.sending : copy.send_invite}
          </button>
        </div>
      </form>
    </dialog>
  );
}
