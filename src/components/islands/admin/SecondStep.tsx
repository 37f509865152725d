import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { isApiError, type FactorMethod } from './api.ts';
import { passCode, passkeySignInOptions, passPasskey } from './auth-api.ts';
import type { SecondStepCopy } from './copy.ts';

interface Props {
  ticket: string;
  methods: FactorMethod[];
  copy: SecondStepCopy;
  onToken: (token: string) => void;
  /** The ticket is spent (5 minutes, 5 tries): back to the e-mail and password. */
  onRestart: () => void;
}

/**
 * A refused code (401 `invalid_code`) is the person's to retry; 401 `ticket_expired` (5 minutes or 5 tries
 * gone) or a throttled address (429) sends them back to the password; a locked second step (423) too, with
 * word of the mailed unlock link.
 */
const ticketSpent = (error: unknown) =>
  isApiError(error, 401, 'ticket_expired') || isApiError(error, 410) || isApiError(error, 429);

/**
 * The sign-in's second step: a passkey (WebAuthn through @simplewebauthn/browser, loaded only when chosen),
 * an authenticator-app code, or a single-use recovery code, as the account has them. Loaded after the
 * password step, so the sign-in page's first paint carries none of it.
 */
export function SecondStep({ ticket, methods, copy, onToken, onRestart }: Props) {
  const id = useId();
  const codeMethods = methods.filter((m): m is 'totp' | 'recovery' => m !== 'passkey');
  const [method, setMethod] = useState<'totp' | 'recovery' | null>(codeMethods[0] ?? null);
  const [error, setError] = useState<string | null>(null);
  const [spent, setSpent] = useState(false);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const failed = (error: unknown, message: string) => {
    if (isApiError(error, 423, 'account_locked')) {
      setSpent(true);
      setError(copy.locked);
    } else if (ticketSpent(error)) {
      setSpent(true);
      setError(copy.expired);
    } else setError(message);
  };

  const submitCode = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !method) return;
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s+/g, '');
    setBusy(true);
    setError(null);
    try {
      onToken(await passCode(ticket, method, code));
    } catch (error) {
      failed(error, copy.wrong_code);
      setBusy(false);
      field.current?.select();
    }
  };

  const usePasskey = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = (await passkeySignInOptions(ticket)) as Parameters<
        typeof startAuthentication
      >[0]['optionsJSON'];
      const response = await startAuthentication({ optionsJSON: options });
      onToken(await passPasskey(ticket, response));
    } catch (error) {
      failed(error, copy.passkey_failed);
      setBusy(false);
    }
  };

  const other = method === 'totp' ? 'recovery' : 'totp';
  return (
    <div className="admin-second" aria-busy={busy}>
      <h2 ref={heading} tabIndex={-1} className="admin-second__title">
        {copy.heading}
      </h2>
      <p className="admin-second__intro">{copy.intro}</p>
      <div role="alert" className="admin-login__alert">
        {error && (
          <p id={`${id}-error`} className="admin-error">
            {error}
          </p>
        )}
      </div>
      {spent ? (
        <button type="button" className="admin-button admin-button--primary" onClick={onRestart}>
          {copy.restart}
        </button>
      ) : (
        <>
          {methods.includes('passkey') && (
            <div className="admin-second__passkey">
              <button
                type="button"
                className="admin-button admin-button--primary admin-login__submit"
                aria-disabled={busy}
                aria-describedby={`${id}-passkey-hint`}
                onClick={usePasskey}
              >
                {copy.passkey}
              </button>
              <p id={`${id}-passkey-hint`} className="admin-hint">
                {copy.passkey_hint}
              </p>
            </div>
          )}
          {method && methods.includes('passkey') && (
            <p className="admin-second__or">
              <span>{copy.or}</span>
            </p>
          )}
          {method && (
            <form className="admin-login" onSubmit={submitCode}>
              <div className="admin-field">
                <label htmlFor={`${id}-code`} className="admin-label">
                  {method === 'totp' ? copy.code : copy.recovery}
                </label>
                <p id={`${id}-hint`} className="admin-hint">
                  {method === 'totp' ? copy.code_hint : copy.recovery_hint}
                </p>
                <input
                  ref={field}
                  key={method}
                  id={`${id}-code`}
                  className="admin-input admin-input--code"
                  name="code"
                  required
                  autoComplete="one-time-code"
                  spellCheck={false}
                  {...(method === 'totp'
                    ? { inputMode: 'numeric' as const, pattern: '[0-9 ]{6,7}', maxLength: 7 }
                    : { maxLength: 40 })}
                  aria-invalid={error && !spent ? true : undefined}
                  aria-describedby={[`${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ')}
                />
              </div>
              <button
                type="submit"
                className={`admin-button admin-login__submit${methods.includes('passkey') ? '' : ' admin-button--primary'}`}
                aria-disabled={busy}
              >
                {busy ? copy.working : copy.submit}
              </button>
              {codeMethods.length > 1 && (
                <button
                  type="button"
                  className="admin-link-button"
                  onClick={() => {
                    setMethod(other);
                    setError(null);
                  }}
                >
                  {other === 'recovery' ? copy.use_recovery : copy.use_code}
                </button>
              )}
            </form>
          )}
        </>
      )}
    </div>
  );
}
