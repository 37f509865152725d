import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { ADMIN_LOGIN } from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import { isApiError } from './api.ts';
import { requestPasswordReset } from './auth-api.ts';
import type { ForgotCopy } from './copy.ts';
import { fill } from './format.ts';
import { FormEnd } from './FormEnd.tsx';
import './admin.css';

interface Props {
  copy: ForgotCopy;
}

function Form({ copy }: Props) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  /** Why the last request failed: a throttled network (429) is told apart from an outage. */
  const [failed, setFailed] = useState<'throttled' | 'error' | null>(null);
  const done = useRef<HTMLParagraphElement>(null);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (sentTo) done.current?.focus();
  }, [sentTo]);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    setFailed(null);
    try {
      await requestPasswordReset(email);
      setSentTo(email);
    } catch (error) {
      setFailed(isApiError(error, 429) ? 'throttled' : 'error');
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <div className="admin-login">
        <p ref={done} tabIndex={-1} className="admin-notice admin-notice--plain" role="status">
          {fill(copy.sent, { email: sentTo })}
        </p>
        <a className="admin-login__home" href={ADMIN_LOGIN}>
          {copy.back}
        </a>
      </div>
    );
  }

  return (
    <form className="admin-login" method="post" onSubmit={submit} aria-busy={busy}>
      <div className="admin-field">
        <label htmlFor={`${id}-email`} className="admin-label">
          {copy.email}
        </label>
        <input
          id={`${id}-email`}
          className="admin-input"
          type="email"
          name="email"
          required
          autoComplete="username"
          spellCheck={false}
          aria-describedby={failed ? `${id}-error` : undefined}
        />
      </div>
      <FormEnd
        errorId={`${id}-error`}
        error={failed ? copy[failed] : undefined}
        busy={busy}
        disabled={!hydrated}
        label={busy ? copy.sending : copy.submit}
      />
      <a className="admin-login__home" href={ADMIN_LOGIN}>
        {copy.back}
      </a>
    </form>
  );
}

/** "Forgot password?": asks for a reset link; the answer is the same for every address. client:interaction. */
export default function ForgotPasswordForm(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Form {...props} />
    </IslandErrorBoundary>
  );
}
