import { useEffect, useId, useRef, useState } from 'react';
import { clearToken, flashSignedOut, ADMIN_LOGIN, type SignOutReason } from '../../../lib/admin-token.ts';
import { isAuthError, signOut, watchAuthorisedCalls } from './api.ts';
import { fetchAccount } from './account-api.ts';
import type { IdleCopy } from './copy.ts';
import { localTime } from './format.ts';
import { nextSeen, sessionDeadlines, type SessionTimes } from './session-clock.ts';

interface Props {
  token: string;
  /** The session's limits as GET /api/account reported them. */
  session: SessionTimes;
  copy: IdleCopy;
}

/** Ends the session here: revokes it on the server if it still answers, then shows the sign-in page. */
export async function endSession(token: string, reason: SignOutReason): Promise<void> {
  clearToken();
  flashSignedOut(reason);
  try {
    await signOut(token);
  } catch {
    // Already ended on the server: nothing left to revoke.
  }
  window.location.replace(ADMIN_LOGIN);
}

/**
 * Watches the session's idle clock (ASVS 7.3.1): a minute before the server would end it, a modal dialog
 * offers "Stay signed in" (one call, which the server counts as activity); at the limit it signs out. Every
 * call the admin makes restarts the clock, as it does on the server.
 */
export function SessionGuard({ token, session, copy }: Props) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const stay = useRef<HTMLButtonElement>(null);
  const [lastSeen, setLastSeen] = useState(() => Date.now());
  const [warning, setWarning] = useState(false);
  const [failed, setFailed] = useState(false);
  const { warnAt, endAt, reason } = sessionDeadlines(lastSeen, session);

  useEffect(() => {
    watchAuthorisedCalls(() => setLastSeen((previous) => nextSeen(previous, Date.now())));
    return () => watchAuthorisedCalls(undefined);
  }, []);

  useEffect(() => {
    const now = Date.now();
    if (now >= endAt) {
      void endSession(token, reason);
      return;
    }
    setWarning(now >= warnAt);
    const timers = [
      window.setTimeout(() => setWarning(true), Math.max(0, warnAt - now)),
      window.setTimeout(() => void endSession(token, reason), endAt - now),
    ];
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [token, warnAt, endAt, reason]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (warning && !element.open) {
      element.showModal();
      stay.current?.focus();
    } else if (!warning && element.open) element.close();
  }, [warning]);

  const keepAlive = async () => {
    if (reason === 'limit') return setWarning(false);
    try {
      await fetchAccount(token);
      setFailed(false);
      setWarning(false);
    } catch (error) {
      if (isAuthError(error)) void endSession(token, 'idle');
      else setFailed(true);
    }
  };

  const text = reason === 'limit' ? copy.text_limit : copy.text_idle;
  return (
    <dialog
      ref={dialog}
      className="admin-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        void keepAlive();
      }}
    >
      <div className="admin-dialog__body">
        <h2 id={`${id}-title`} className="admin-dialog__title">
          {copy.title}
        </h2>
        <p id={`${id}-text`}>{text.replace('{time}', localTime(endAt))}</p>
        {failed && <p className="admin-error">{copy.stay_failed}</p>}
        <div className="admin-dialog__actions">
          <button type="button" className="admin-button" onClick={() => void endSession(token, reason)}>
            {copy.sign_out}
          </button>
          <button
            ref={stay}
            type="button"
            className="admin-button admin-button--primary"
            onClick={() => void keepAlive()}
          >
            {reason === 'limit' ? copy.ok : copy.stay}
          </button>
        </div>
      </div>
    </dialog>
  );
}
