import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { ADMIN_LOGIN } from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import { isApiError } from './api.ts';
import { confirmPasswordReset, linkToken } from './auth-api.ts';
import type { ResetCopy } from './copy.ts';
import { NewPasswordFields, passwordMessage } from './NewPasswordFields.tsx';
import { passwordProblem } from './password-check.ts';
import { FormEnd } from './FormEnd.tsx';
import './admin.css';

interface Props {
  copy: ResetCopy;
}

type State = 'checking' | 'form' | 'missing' | 'expired' | 'done';

function Form({ copy }: Props) {
  const id = useId();
  const [state, setState] = useState<State>('checking');
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const result = useRef<HTMLParagraphElement>(null);

  // The link's token sits in the fragment; it is read once and wiped from the address bar and history.
  useEffect(() => {
    const value = linkToken(window.location.hash);
    if (value) history.replaceState(null, '', window.location.pathname);
    setToken(value);
    setState(value ? 'form' : 'missing');
  }, []);
  useEffect(() => {
    if (state === 'done' || state === 'expired') result.current?.focus();
  }, [state]);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !token) return;
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const problem = passwordProblem(password, String(form.get('repeat') ?? ''));
    setFailed(false);
    setError(passwordMessage(copy.password, problem));
    if (problem) return;
    setBusy(true);
    try {
      await confirmPasswordReset(token, password);
      setState('done');
    } catch (failure) {
      if (isApiError(failure, 410)) setState('expired');
      else if (isApiError(failure, 400, 'validation_failed') && 'password' in failure.fields)
        setError(passwordMessage(copy.password, null, failure.fields.password));
      else if (isApiError(failure, 400)) setState('expired');
      else setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  if (state === 'checking') return null;
  if (state !== 'form') {
    const text = state === 'done' ? copy.done : state === 'expired' ? copy.expired : copy.missing;
    return (
      <div className="admin-login">
        <p
          ref={result}
          tabIndex={-1}
          className={`admin-notice admin-notice--plain${state === 'done' ? '' : ' admin-notice--warn'}`}
          role="status"
        >
          {text}
        </p>
        <a
          className="admin-button admin-button--primary admin-login__submit"
          href={state === 'done' ? ADMIN_LOGIN : '/admin/forgot-password'}
        >
          {state === 'done' ? copy.sign_in : copy.ask_again}
        </a>
      </div>
    );
  }

  return (
    <form className="admin-login" method="post" noValidate onSubmit={submit} aria-busy={busy}>
      <NewPasswordFields copy={copy.password} error={error} />
      <FormEnd
        errorId={`${id}-error`}
        error={failed ? copy.error : undefined}
        busy={busy}
        label={busy ? copy.saving : copy.submit}
      />
    </form>
  );
}

/** The mailed reset link's page: a new password twice, then back to sign-in. client:load. */
export default function ResetPasswordForm(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Form {...props} />
    </IslandErrorBoundary>
  );
}
