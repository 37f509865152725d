import { useId, useRef, useState, type SubmitEvent } from 'react';
import type { Proof } from '../account-api.ts';
import { isApiError, isAuthError } from '../api.ts';
import type { AccountCopy } from '../copy.ts';
import { useModal } from '../modal.ts';

interface Props {
  /** What is about to change and what it does; null while no change waits. */
  change: { text: string; label: string; accept: string } | null;
  /** Whether the account has an authenticator app, whose code may stand in for the password. */
  totp: boolean;
  copy: AccountCopy;
  /** Runs the change with the proof; a refused proof (400, 423) stays in the dialog to be typed again. */
  onProof: (proof: Proof) => Promise<void>;
  onCancel: () => void;
  onUnauthorized: () => void;
}

/** Six digits are a code: no password is that short (at least 12 characters). */
export const proofOf = (typed: string): Proof =>
  /^\s*[0-9]{3}\s?[0-9]{3}\s*$/.test(typed)
    ? { code: typed.replace(/\s+/g, '') }
    : { currentPassword: typed };

/**
 * Asks again who it is before a second factor or the recovery codes change (the server refuses the change
 * without it): the password, or a code from the authenticator app. A native modal `<dialog>`; focus starts in
 * the field and returns to the opener; Escape cancels.
 */
export function ProofDialog({ change, totp, copy, onProof, onCancel, onUnauthorized }: Props) {
  const field = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const dialog = useModal(change !== null, field, () => setError(null));

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const typed = String(new FormData(form).get('proof') ?? '');
    if (!typed.trim()) {
      setError(copy.proof_wrong);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onProof(proofOf(typed));
      form.reset();
    } catch (failure) {
      if (isApiError(failure, 423)) setError(copy.proof_locked);
      else if (isApiError(failure, 400)) setError(copy.proof_wrong);
      else if (isAuthError(failure)) onUnauthorized();
      else throw failure;
      field.current?.select();
    } finally {
      setBusy(false);
    }
  };

  const label = totp ? copy.proof_either : copy.proof_password;
  return (
    <dialog
      ref={dialog}
      className="admin-dialog admin-dialog--form"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <form className="admin-dialog__body" onSubmit={submit} noValidate>
        <h2 id={`${id}-title`} className="admin-dialog__title">
          {copy.proof_title}
        </h2>
        <p id={`${id}-text`}>
          {change?.text} <strong className="admin-dialog__detail">{change?.label}</strong>
        </p>
        <p>{copy.proof_text}</p>
        <div className="admin-field">
          <label htmlFor={`${id}-proof`} className="admin-label">
            {label}
          </label>
          {error && (
            <p id={`${id}-error`} className="admin-field-error" role="alert">
              {error}
            </p>
          )}
          <input
            ref={field}
            id={`${id}-proof`}
            name="proof"
            type="password"
            className="admin-input"
            autoComplete="current-password"
            required
            maxLength={1024}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <div className="admin-dialog__actions">
          <button type="button" className="admin-button" onClick={onCancel}>
            {copy.cancel}
          </button>
          <button type="submit" className="admin-button admin-button--primary" aria-disabled={busy}>
            {change?.accept ?? copy.proof_submit}
          </button>
        </div>
      </form>
    </dialog>
  );
}
