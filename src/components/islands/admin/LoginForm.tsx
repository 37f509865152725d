import { useEffect, useId, useState, type SubmitEvent } from 'react';
import {
  ADMIN_HOME,
  clearToken,
  flashSignedIn,
  readToken,
  storeToken,
  tokenLooksUsable,
} from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import { fetchSubscriberPage, isAuthError, signIn } from './api.ts';
import type { LoginCopy } from './copy.ts';
import './admin.css';

interface Props {
  copy: LoginCopy;
}

function Form({ copy }: Props) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [hydrated, setHydrated] = useState(false);

  // Until the script runs, the button stays disabled, so neither a click nor Enter can send the form natively.
  useEffect(() => setHydrated(true), []);

  // Already holding a token the server still accepts: straight to the panel.
  useEffect(() => {
    const token = readToken();
    if (!tokenLooksUsable(token)) {
      if (token) clearToken();
      return;
    }
    const controller = new AbortController();
    fetchSubscriberPage(
      token,
      { q: '', sort: 'id', status: '', page: 1, pageSize: 1 },
      controller.signal,
    ).then(
      () => window.location.replace(ADMIN_HOME),
      (error: unknown) => {
        if (isAuthError(error)) clearToken();
      },
    );
    return () => controller.abort();
  }, []);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setFailed(false);
    try {
      storeToken(await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? '')));
      flashSignedIn();
      window.location.assign(ADMIN_HOME);
    } catch {
      // Wrong credentials, a throttled address (429), an outage: one message, so nothing is given away.
      setFailed(true);
      setBusy(false);
    }
  };

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
          aria-invalid={failed || undefined}
          aria-describedby={failed ? `${id}-error` : undefined}
        />
      </div>
      <div className="admin-field">
        <label htmlFor={`${id}-password`} className="admin-label">
          {copy.password}
        </label>
        <input
          id={`${id}-password`}
          className="admin-input"
          type="password"
          name="password"
          required
          autoComplete="current-password"
          aria-invalid={failed || undefined}
          aria-describedby={failed ? `${id}-error` : undefined}
        />
      </div>
      <div role="alert" className="admin-login__alert">
        {failed && (
          <p id={`${id}-error`} className="admin-error">
            {copy.error}
          </p>
        )}
      </div>
      <button
        type="submit"
        className="admin-button admin-button--primary admin-login__submit"
        disabled={!hydrated}
        aria-disabled={busy}
      >
        {copy.submit}
      </button>
      <a className="admin-login__home" href="/">
        {copy.home}
      </a>
    </form>
  );
}

/** The admin sign-in form (SPEC §2). Hydrated with client:load. */
export default function LoginForm(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Form {...props} />
    </IslandErrorBoundary>
  );
}
