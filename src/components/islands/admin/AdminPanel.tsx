import { lazy, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  ADMIN_ACCOUNT,
  ADMIN_LOGIN,
  clearToken,
  readToken,
  takeSignedInFlash,
  tokenLooksUsable,
} from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import { fetchAccount, type Account } from './account-api.ts';
import { isAuthError } from './api.ts';
import { readDraft } from './campaigns/draft-store.ts';
import { LoadFailed } from './ListFallback.tsx';
import { SessionGuard } from './SessionGuard.tsx';
import type { TabProps } from './tab-props.ts';
import { tabsFor, type TabName } from './tabs.ts';
import { ToastRegion, useToasts } from './Toasts.tsx';
import './admin.css';
import './insight/styles.ts';

type Props = Pick<TabProps, 'copy' | 'articles'>;

/**
 * Each tab's code, loaded the first time the tab opens, so a role downloads only what it can see. A tab
 * named in tabs.ts needs its entry here.
 */
const TAB_COMPONENTS: Record<TabName, React.LazyExoticComponent<(props: TabProps) => React.ReactNode>> = {
  subscribers: lazy(() => import('./SubscriberTable.tsx').then((m) => ({ default: m.SubscribersTab }))),
  inquiries: lazy(() => import('./InquiryList.tsx').then((m) => ({ default: m.InquiriesTab }))),
  campaigns: lazy(() => import('./campaigns/CampaignsTab.tsx').then((m) => ({ default: m.CampaignsPanel }))),
  overview: lazy(() => import('./insight/OverviewTab.tsx').then((m) => ({ default: m.OverviewPanel }))),
  team: lazy(() => import('./team/TeamTab.tsx').then((m) => ({ default: m.TeamTab }))),
  activity: lazy(() => import('./team/ActivityTab.tsx').then((m) => ({ default: m.ActivityTab }))),
  suppressions: lazy(() => import('./SuppressionsTab.tsx').then((m) => ({ default: m.SuppressionsTab }))),
  content: lazy(() => import('./content/ContentTab.tsx').then((m) => ({ default: m.ContentTab }))),
};

/** Leaves the panel for the sign-in page; `replace` so Back does not return to a panel that cannot load. */
function toLogin() {
  clearToken();
  window.location.replace(ADMIN_LOGIN);
}

function Panel({ copy, articles }: Props) {
  const [token, setToken] = useState<string | null>(null);
  const [account, setAccount] = useState<Account | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [tab, setTab] = useState<TabName | null>(null);
  const [opened, setOpened] = useState<ReadonlySet<TabName>>(new Set());
  const [draftWaiting, setDraftWaiting] = useState(false);
  const [resumeDraft, setResumeDraft] = useState(false);
  const tabButtons = useRef<Partial<Record<TabName, HTMLButtonElement | null>>>({});
  const { toasts, notify, dismiss } = useToasts();
  const onUnauthorized = useCallback(toLogin, []);
  const tabs = account ? tabsFor(account.role) : [];

  // Who is signed in decides the tabs: the role is read from the server on every start, never from the token.
  useEffect(() => {
    const stored = readToken();
    if (!tokenLooksUsable(stored)) return toLogin();
    const controller = new AbortController();
    setFailed(false);
    fetchAccount(stored, controller.signal).then(
      (me) => {
        if (me.enrol) return window.location.replace(ADMIN_ACCOUNT);
        const first = tabsFor(me.role)[0] ?? null;
        setToken(stored);
        setAccount(me);
        setTab(first);
        if (first) setOpened(new Set([first]));
        setDraftWaiting(readDraft() !== null && tabsFor(me.role).includes('campaigns'));
        if (takeSignedInFlash()) notify(copy.signedIn);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isAuthError(error)) return toLogin();
        setFailed(true);
      },
    );
    return () => controller.abort();
  }, [attempt, copy.signedIn, notify]);

  const select = (next: TabName, focus = false) => {
    setTab(next);
    setOpened((set) => new Set(set).add(next));
    if (focus) tabButtons.current[next]?.focus();
  };

  // WAI-ARIA tabs: arrows move between tabs and select at once, Home and End jump to either end.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tab ? tabs.indexOf(tab) : 0;
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[next]!, true);
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
          <LoadFailed copy={copy.subscribers} onRetry={() => setAttempt((n) => n + 1)} />
        ) : (
          <p className="admin-status" role="status">
            {copy.subscribers.loading}
          </p>
        )}
        {toastRegion}
      </>
    );
  }

  const props: TabProps = { copy, articles, token, account, notify, onUnauthorized, resumeDraft };
  return (
    <div className="admin-panel">
      <SessionGuard token={token} session={account.session} copy={copy.idle} />
      {draftWaiting && tab !== 'campaigns' && (
        <div className="admin-notice" role="status">
          <p>{copy.tabs.draft_banner}</p>
          <button
            type="button"
            className="admin-button admin-button--small"
            onClick={() => {
              setResumeDraft(true);
              setDraftWaiting(false);
              select('campaigns', true);
            }}
          >
            {copy.tabs.draft_open}
          </button>
        </div>
      )}
      <div className="admin-tabs" role="tablist" aria-label={copy.tabs.label} onKeyDown={onTabKey}>
        {tabs.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabButtons.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`admin-tab-${name}`}
            className="admin-tabs__tab"
            aria-selected={tab === name}
            aria-controls={`admin-tabpanel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => select(name)}
          >
            {copy.tabs[name]}
          </button>
        ))}
      </div>
      {tabs.map((name) => {
        const Tab = TAB_COMPONENTS[name];
        return (
          <div
            key={name}
            role="tabpanel"
            id={`admin-tabpanel-${name}`}
            aria-labelledby={`admin-tab-${name}`}
            className="admin-tabpanel"
            hidden={tab !== name}
            tabIndex={0}
          >
            {opened.has(name) && (
              <Suspense
                fallback={
                  <p className="admin-status" role="status">
                    {copy.subscribers.loading}
                  </p>
                }
              >
                <Tab {...props} />
              </Suspense>
            )}
          </div>
        );
      })}
      {toastRegion}
    </div>
  );
}

/**
 * The admin (SPEC §2, issue 23): the tabs the signed-in role may use, behind the admin token, with the
 * session's idle guard. Hydrated with client:session.
 */
export default function AdminPanel(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Panel {...props} />
    </IslandErrorBoundary>
  );
}
