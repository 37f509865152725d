import { useEffect, useId, useState } from 'react';
import { fetchSessions, signOutEverywhere, type Session } from '../account-api.ts';
import { isAbort, isAuthError } from '../api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import type { AccountCopy } from '../copy.ts';
import { localDateTime } from '../format.ts';

interface Props {
  token: string;
  copy: AccountCopy;
  notify: (text: string, tone?: 'success' | 'error') => void;
  onUnauthorized: () => void;
  /** Every session ended, this one too. */
  onSignedOut: () => void;
}

/** Where the account is signed in, this browser first, and "Sign out everywhere". */
export function SessionsSection({ token, copy, notify, onUnauthorized, onSignedOut }: Props) {
  const id = useId();
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchSessions(token, controller.signal).then(
      (rows) => setSessions([...rows].sort((a, b) => Number(b.current) - Number(a.current))),
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setFailed(true);
      },
    );
    return () => controller.abort();
  }, [token, onUnauthorized]);

  const signOutAll = async () => {
    setAsking(false);
    try {
      await signOutEverywhere(token);
      onSignedOut();
    } catch (error) {
      if (isAuthError(error)) onSignedOut();
      else notify(copy.sign_out_all_failed, 'error');
    }
  };

  return (
    <section className="admin-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="admin-card__title">
        {copy.sessions}
      </h2>
      <p className="admin-card__intro">{copy.sessions_intro}</p>
      {failed && <p className="admin-muted">{copy.sessions_failed}</p>}
      {sessions && (
        <ul className="admin-sessions">
          {sessions.map((session) => (
            <li key={session.id} className="admin-session">
              {session.current && (
                <p className="admin-badge admin-session__current">{copy.session_current}</p>
              )}
              <dl className="admin-inquiry__facts">
                <div>
                  <dt>{copy.session_started}</dt>
                  <dd>
                    <time dateTime={session.createdAt}>{localDateTime(session.createdAt)}</time>
                  </dd>
                </div>
                <div>
                  <dt>{copy.session_seen}</dt>
                  <dd>
                    <time dateTime={session.lastSeenAt}>{localDateTime(session.lastSeenAt)}</time>
                  </dd>
                </div>
                <div>
                  <dt>{copy.session_ends}</dt>
                  <dd>
                    <time dateTime={session.expiresAt}>{localDateTime(session.expiresAt)}</time>
                  </dd>
                </div>
                <div>
                  <dt>{copy.session_client}</dt>
                  <dd>{session.client ?? copy.session_client_unknown}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <div className="admin-card__actions">
        <button type="button" className="admin-button admin-button--danger" onClick={() => setAsking(true)}>
          {copy.sign_out_all}
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        title={copy.sign_out_all_title}
        text={copy.sign_out_all_text}
        detail={copy.sign_out_all_detail}
        confirmLabel={copy.sign_out_all}
        cancelLabel={copy.cancel}
        onConfirm={() => void signOutAll()}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
