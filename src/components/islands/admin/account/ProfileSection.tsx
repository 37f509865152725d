import { useId, useState, type SubmitEvent } from 'react';
import { changePassword, renameAccount, type Account } from '../account-api.ts';
import { isApiError, isAuthError } from '../api.ts';
import type { AccountCopy } from '../copy.ts';
import { NewPasswordFields } from '../NewPasswordFields.tsx';
import { passwordMessage, passwordProblem } from '../password-check.ts';

interface Props {
  token: string;
  account: Account;
  copy: AccountCopy;
  notify: (text: string, tone?: 'success' | 'error') => void;
  onUnauthorized: () => void;
  onAccount: (account: Account) => void;
  /** The password changed: this session goes on with a new token. */
  onToken: (token: string) => void;
}

/** The person's name (with e-mail and role, which only the owner changes) and their password. */
export function ProfileSection({ token, account, copy, notify, onUnauthorized, onAccount, onToken }: Props) {
  const id = useId();
  const [busy, setBusy] = useState<'name' | 'password' | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [currentWrong, setCurrentWrong] = useState(false);

  const saveName = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    setBusy('name');
    try {
      onAccount(await renameAccount(token, name));
      notify(copy.name_saved);
    } catch (error) {
      if (isAuthError(error)) onUnauthorized();
      else notify(copy.name_failed, 'error');
    } finally {
      setBusy(null);
    }
  };

  const savePassword = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = String(data.get('password') ?? '');
    const problem = passwordProblem(password, String(data.get('repeat') ?? ''));
    setCurrentWrong(false);
    setPasswordError(passwordMessage(copy.password, problem));
    if (problem) return;
    setBusy('password');
    try {
      onToken(await changePassword(token, String(data.get('currentPassword') ?? ''), password));
      form.reset();
      notify(copy.password_changed);
    } catch (error) {
      if (isApiError(error, 400, 'validation_failed') && 'password' in error.fields)
        setPasswordError(passwordMessage(copy.password, null, error.fields.password));
      else if (isApiError(error, 400) || isApiError(error, 403)) setCurrentWrong(true);
      else if (isAuthError(error)) onUnauthorized();
      else notify(copy.password_failed, 'error');
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <section className="admin-card" aria-labelledby={`${id}-details`}>
        <h2 id={`${id}-details`} className="admin-card__title">
          {copy.details}
        </h2>
        <dl className="admin-inquiry__facts">
          <div>
            <dt>{copy.email}</dt>
            <dd>{account.email}</dd>
          </div>
          <div>
            <dt>{copy.role}</dt>
            <dd>
              {copy.roles[account.role]}: {copy.roles[`${account.role}_hint`]}
            </dd>
          </div>
        </dl>
        <form className="admin-card__form" onSubmit={saveName}>
          <div className="admin-field">
            <label htmlFor={`${id}-name`} className="admin-label">
              {copy.name}
            </label>
            <input
              id={`${id}-name`}
              name="name"
              className="admin-input"
              autoComplete="name"
              maxLength={100}
              defaultValue={account.name}
            />
          </div>
          <button type="submit" className="admin-button" aria-disabled={busy !== null}>
            {copy.save_name}
          </button>
        </form>
      </section>
      <section className="admin-card" aria-labelledby={`${id}-password`}>
        <h2 id={`${id}-password`} className="admin-card__title">
          {copy.password_heading}
        </h2>
        <p className="admin-card__intro">{copy.password_intro}</p>
        <form className="admin-card__form admin-card__form--stack" noValidate onSubmit={savePassword}>
          <input type="hidden" name="username" autoComplete="username" value={account.email} readOnly />
          <div className="admin-field">
            <label htmlFor={`${id}-current`} className="admin-label">
              {copy.password.current}
            </label>
            {currentWrong && (
              <p id={`${id}-current-error`} className="admin-field-error">
                {copy.password.current_wrong}
              </p>
            )}
            <input
              id={`${id}-current`}
              name="currentPassword"
              type="password"
              className="admin-input"
              required
              autoComplete="current-password"
              aria-invalid={currentWrong || undefined}
              aria-describedby={currentWrong ? `${id}-current-error` : undefined}
            />
          </div>
          <NewPasswordFields copy={copy.password} error={passwordError} />
          <div>
            <button
              type="submit"
              className="admin-button admin-button--primary"
              aria-disabled={busy !== null}
            >
              {copy.change_password}
            </button>
          </div>
        </form>
      </section>
    </>
  );
}
