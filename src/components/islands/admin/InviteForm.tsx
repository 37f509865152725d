import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { ADMIN_ACCOUNT, storeToken } from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import { isApiError } from './api.ts';
import { acceptInvitation, inspectInvitation, linkToken, type Role } from './auth-api.ts';
import type { InviteCopy } from './copy.ts';
import { NewPasswordFields, passwordMessage } from './NewPasswordFields.tsx';
import { passwordProblem } from './password-check.ts';
import { FormEnd } from './FormEnd.tsx';
import './admin.css';

interface Props {
  copy: InviteCopy;
}

type State =
  | { kind: 'checking' }
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'failed' }
  | { kind: 'form'; token: string; email: string; role: Role };

function Form({ copy }: Props) {
  const id = useId();
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const notice = useRef<HTMLParagraphElement>(null);

  // The link's token sits in the fragment: read it, wipe it from the address bar, and ask who it is for.
  useEffect(() => {
    const token = linkToken(window.location.hash);
    if (!token) return setState({ kind: 'missing' });
    history.replaceState(null, '', window.location.pathname);
    inspectInvitation(token).then(
      (invitation) => setState({ kind: 'form', token, ...invitation }),
      (failure: unknown) =>
        setState({ kind: isApiError(failure, 410) || isApiError(failure, 400) ? 'expired' : 'failed' }),
    );
  }, []);
  useEffect(() => {
    if (state.kind === 'expired' || state.kind === 'missing') notice.current?.focus();
  }, [state.kind]);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || state.kind !== 'form') return;
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const problem = passwordProblem(password, String(form.get('repeat') ?? ''));
    setFailed(false);
    setError(passwordMessage(copy.password, problem));
    if (problem) return;
    setBusy(true);
    try {
      storeToken(await acceptInvitation(state.token, password, String(form.get('name') ?? '').trim()));
      window.location.assign(ADMIN_ACCOUNT);
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure, 410)) setState({ kind: 'expired' });
      else if (isApiError(failure, 400, 'validation_failed') && 'password' in failure.fields)
        setError(passwordMessage(copy.password, null, failure.fields.password));
      else setFailed(true);
    }
  };

  // In the notice's own box, so that its text stays where it is when the answer replaces it.
  if (state.kind === 'checking')
    return (
      <p className="admin-notice admin-notice--plain" role="status">
        {copy.checking}
      </p>
    );
  if (state.kind !== 'form') {
    const text =
      state.kind === 'failed' ? copy.error : state.kind === 'expired' ? copy.expired : copy.missing;
    return (
      <p
        ref={notice}
        tabIndex={-1}
        className="admin-notice admin-notice--plain admin-notice--warn"
        role="status"
      >
        {text}
      </p>
    );
  }

  return (
    <form className="admin-login" method="post" noValidate onSubmit={submit} aria-busy={busy}>
      <dl className="admin-invite__facts">
        <div>
          <dt>{copy.for}</dt>
          <dd>{state.email}</dd>
        </div>
        <div>
          <dt>{copy.role}</dt>
          <dd>
            {copy.roles[state.role]}: {copy.roles[`${state.role}_hint`]}
          </dd>
        </div>
      </dl>
      {/* The address the invitation is for, so a password manager files the new password under it. */}
      <input type="hidden" name="username" autoComplete="username" value={state.email} readOnly />
      <div className="admin-field">
        <label htmlFor={`${id}-name`} className="admin-label">
          {copy.name}
        </label>
        <p id={`${id}-name-hint`} className="admin-hint">
          {copy.name_hint}
        </p>
        <input
          id={`${id}-name`}
          className="admin-input"
          name="name"
          autoComplete="name"
          maxLength={100}
          aria-describedby={`${id}-name-hint`}
        />
      </div>
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

/** The mailed invitation's page: who it is for, then a name and a password; enrolment follows. client:load. */
export default function InviteForm(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Form {...props} />
    </IslandErrorBoundary>
  );
}
