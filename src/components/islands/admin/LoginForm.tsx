import { lazy, Suspense, useEffect, useId, useState, type SubmitEvent } from 'react';
import {
  ADMIN_ACCOUNT,
  ADMIN_HOME,
  clearToken,
  flashSignedIn,
  readToken,
  storeToken,
  takeSignedOutFlash,
  tokenLooksUsable,
  type SignOutReason,
} from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import { fetchAccount } from './account-api.ts';
import { isAuthError, signIn, type FactorMethod } from './api.ts';
import type { LoginCopy } from './copy.ts';
import { FormEnd } from './FormEnd.tsx';
import './admin.css';

/** The second step loads once the password is accepted. */
const SecondStep = lazy(() => import('./SecondStep.tsx').then((m) => ({ default: m.SecondStep })));

interface Props {
  copy: LoginCopy;
}

/** A full session: greet on the panel. */
function enter(token: string) {
  storeToken(token);
  flashSignedIn();
  window.location.assign(ADMIN_HOME);
}

/** A session that may only add a second factor: straight to the account page's enrolment. */
function enrol(token: string) {
  storeToken(token);
  window.location.assign(ADMIN_ACCOUNT);
}

function Form({ copy }: Props) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [ended, setEnded] = useState<SignOutReason | null>(null);
  const [mfa, setMfa] = useState<{ ticket: string; methods: FactorMethod[] } | null>(null);

  // Until the script runs, the button stays disabled, so neither a click nor Enter can send the form natively.
  useEffect(() => {
    setHydrated(true);
    setEnded(takeSignedOutFlash());
  }, []);

  // Already holding a token the server still accepts: straight to the panel (or to enrolment).
  useEffect(() => {
    const token = readToken();
    if (!tokenLooksUsable(token)) {
      if (token) clearToken();
      return;
    }
    const controller = new AbortController();
    fetchAccount(token, controller.signal).then(
      (account) => window.location.replace(account.enrol ? ADMIN_ACCOUNT : ADMIN_HOME),
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
      const step = await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
      if (step.kind === 'signed-in') return enter(step.token);
      if (step.kind === 'enrol') return enrol(step.token);
      setEnded(null);
      setMfa({ ticket: step.ticket, methods: step.methods });
      setBusy(false);
    } catch {
      // Wrong credentials, a throttled address (429), an outage: one message, so nothing is given away.
      setFailed(true);
      setBusy(false);
    }
  };

  if (mfa) {
    return (
      <Suspense
        fallback={
          <p className="admin-status" role="status">
            {copy.secondStep.working}
          </p>
        }
      >
        <SecondStep
          ticket={mfa.ticket}
          methods={mfa.methods}
          copy={copy.secondStep}
          onToken={enter}
          onRestart={() => setMfa(null)}
        />
      </Suspense>
    );
  }

  return (
    <>
      {ended && (
        <p className="admin-notice admin-notice--plain" role="status">
          {ended === 'idle' ? copy.idle_signed_out : copy.limit_signed_out}
        </p>
      )}
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
        <FormEnd
          errorId={`${id}-error`}
          error={failed ? copy.error : undefined}
          busy={busy}
          disabled={!hydrated}
          label={copy.submit}
        />
        <div className="admin-login__links">
          <a className="admin-login__home" href="/admin/forgot-password">
            {copy.forgot}
          </a>
          <a className="admin-login__home" href="/">
            {copy.home}
          </a>
        </div>
      </form>
    </>
  );
}

/** The admin sign-in (SPEC §2): the SPEC's form, then the second factor (issue 23). Hydrated with client:signin. */
export default function LoginForm(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Form {...props} />
    </IslandErrorBoundary>
  );
}
