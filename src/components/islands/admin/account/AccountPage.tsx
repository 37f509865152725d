import { useCallback, useEffect, useState } from 'react';
import {
  ADMIN_HOME,
  ADMIN_LOGIN,
  clearToken,
  readToken,
  storeToken,
  tokenLooksUsable,
} from '../../../../lib/admin-token.ts';
import IslandErrorBoundary from '../../IslandErrorBoundary.tsx';
import { fetchAccount, type Account, type Enrolled } from '../account-api.ts';
import { isAuthError } from '../api.ts';
import type { AccountCopy } from '../copy.ts';
import { LoadFailed } from '../ListFallback.tsx';
import { SessionGuard } from '../SessionGuard.tsx';
import { ToastRegion, useToasts } from '../Toasts.tsx';
import { FactorsSection } from './FactorsSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import '../admin.css';

interface Props {
  copy: AccountCopy;
}

function toLogin() {
  clearToken();
  window.location.replace(ADMIN_LOGIN);
}

function Page({ copy }: Props) {
  const [token, setToken] = useState<string | null>(null);
  const [account, setAccount] = useState<Account | null>(null);
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);
  /** Recovery codes to show once, and whether they finish an enrolment (then the admin opens next). */
  const [codes, setCodes] = useState<{ list: string[]; finishesEnrolment: boolean } | null>(null);
  const { toasts, notify, dismiss } = useToasts();
  const onUnauthorized = useCallback(toLogin, []);
  const reload = useCallback(() => setVersion((n) => n + 1), []);

  useEffect(() => {
    const stored = readToken();
    if (!tokenLooksUsable(stored)) return toLogin();
    const controller = new AbortController();
    fetchAccount(stored, controller.signal).then(
      (me) => {
        setToken(stored);
        setAccount(me);
        setFailed(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isAuthError(error)) return toLogin();
        setFailed(true);
      },
    );
    return () => controller.abort();
  }, [version]);

  const replaceToken = (next: string) => {
    storeToken(next);
    setToken(next);
  };

  const onEnrolled = (result: Enrolled) => {
    const finishesEnrolment = Boolean(account?.enrol);
    replaceToken(result.token);
    if (result.recoveryCodes.length > 0) setCodes({ list: result.recoveryCodes, finishesEnrolment });
    else if (finishesEnrolment) window.location.assign(ADMIN_HOME);
    reload();
  };

  const toastRegion = (
    <ToastRegion
      toasts={toasts}
      onDismiss={dismiss}
      label={copy.toasts.label}
      dismissLabel={copy.toasts.dismiss}
    />
  );

  if (!token || !account) {
    return (
      <>
        {failed ? (
          <LoadFailed copy={copy} onRetry={reload} />
        ) : (
          <p className="admin-status" role="status">
            {copy.loading}
          </p>
        )}
        {toastRegion}
      </>
    );
  }

  const guard = <SessionGuard token={token} session={account.session} copy={copy.idle} />;
  if (codes) {
    return (
      <div className="admin-account">
        {guard}
        <RecoveryCodes
          codes={codes.list}
          email={account.email}
          copy={copy}
          notify={notify}
          doneLabel={codes.finishesEnrolment ? copy.continue : copy.codes_done}
          onDone={() => (codes.finishesEnrolment ? window.location.assign(ADMIN_HOME) : setCodes(null))}
        />
        {toastRegion}
      </div>
    );
  }

  const shared = { token, account, copy, notify, onUnauthorized };
  return (
    <div className="admin-account">
      {guard}
      {!account.enrol && <ProfileSection {...shared} onAccount={setAccount} onToken={replaceToken} />}
      <FactorsSection
        {...shared}
        onEnrolled={onEnrolled}
        onChanged={reload}
        onCodes={(list) => setCodes({ list, finishesEnrolment: false })}
      />
      {!account.enrol && (
        <SessionsSection
          token={token}
          copy={copy}
          notify={notify}
          onUnauthorized={onUnauthorized}
          onSignedOut={toLogin}
        />
      )}
      {toastRegion}
    </div>
  );
}

/**
 * "Your account" (issue 23): name, password, second factors, recovery codes and sessions. With a token that
 * may only enrol, only the factors show; the first one added finishes the sign-in. Hydrated with client:session.
 */
export default function AccountPage(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Page {...props} />
    </IslandErrorBoundary>
  );
}
