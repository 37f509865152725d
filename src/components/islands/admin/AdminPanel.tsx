import { lazy, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  ADMIN_LOGIN,
  clearToken,
  readToken,
  takeSignedInFlash,
  tokenLooksUsable,
} from '../../../lib/admin-token.ts';
import IslandErrorBoundary from '../IslandErrorBoundary.tsx';
import type { ArticleOption } from './campaigns/types.ts';
import type { PanelCopy } from './copy.ts';
import { SubscriberTable } from './SubscriberTable.tsx';
import { ToastRegion, useToasts } from './Toasts.tsx';
import './admin.css';
import './insight/styles.ts';

/** The inquiries and newsletter-issue tabs load the first time they are opened. */
const InquiryList = lazy(() => import('./InquiryList.tsx').then((m) => ({ default: m.InquiryList })));
const CampaignsTab = lazy(() =>
  import('./campaigns/CampaignsTab.tsx').then((m) => ({ default: m.CampaignsTab })),
);
const OverviewTab = lazy(() => import('./insight/OverviewTab.tsx').then((m) => ({ default: m.OverviewTab })));

const TABS = ['subscribers', 'inquiries', 'campaigns', 'overview'] as const;
type Tab = (typeof TABS)[number];

interface Props {
  copy: PanelCopy;
  /** The articles and news a newsletter issue can show as cards. */
  articles: readonly ArticleOption[];
}

/** Leaves the panel for the sign-in page; `replace` so Back does not return to a panel that cannot load. */
function toLogin() {
  clearToken();
  window.location.replace(ADMIN_LOGIN);
}

function Panel({ copy, articles }: Props) {
  const [token, setToken] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('subscribers');
  const [opened, setOpened] = useState<ReadonlySet<Tab>>(new Set(['subscribers']));
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({
    subscribers: null,
    inquiries: null,
    campaigns: null,
    overview: null,
  });
  const { toasts, notify, dismiss } = useToasts();
  const onUnauthorized = useCallback(toLogin, []);

  useEffect(() => {
    const stored = readToken();
    if (!tokenLooksUsable(stored)) return toLogin();
    setToken(stored);
    if (takeSignedInFlash()) notify(copy.signedIn);
  }, [copy.signedIn, notify]);

  const select = (next: Tab, focus = false) => {
    setTab(next);
    setOpened((set) => new Set(set).add(next));
    if (focus) tabs.current[next]?.focus();
  };

  // WAI-ARIA tabs: arrows move between tabs and select at once, Home and End jump to either end.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.indexOf(tab);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(TABS[next]!, true);
  };

  const toastRegion = (
    <ToastRegion
      toasts={toasts}
      onDismiss={dismiss}
      label={copy.toasts.label}
      dismissLabel={copy.toasts.dismiss}
    />
  );

  if (!token) {
    return (
      <>
        <p className="admin-status" role="status">
          {copy.subscribers.loading}
        </p>
        {toastRegion}
      </>
    );
  }

  return (
    <div className="admin-panel">
      <div className="admin-tabs" role="tablist" aria-label={copy.tabs.label} onKeyDown={onTabKey}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabs.current[name] = element;
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
      <div
        role="tabpanel"
        id="admin-tabpanel-subscribers"
        aria-labelledby="admin-tab-subscribers"
        className="admin-tabpanel"
        hidden={tab !== 'subscribers'}
        tabIndex={0}
      >
        <SubscriberTable
          token={token}
          copy={copy.subscribers}
          pagerCopy={copy.pager}
          pagerLabel={copy.pager.subscribers}
          notify={notify}
          onUnauthorized={onUnauthorized}
        />
      </div>
      {(['inquiries', 'campaigns', 'overview'] as const).map((name) => (
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
                  {copy[name].loading}
                </p>
              }
            >
              {name === 'inquiries' ? (
                <InquiryList
                  token={token}
                  copy={copy.inquiries}
                  pagerCopy={copy.pager}
                  pagerLabel={copy.pager.inquiries}
                  notify={notify}
                  onUnauthorized={onUnauthorized}
                />
              ) : name === 'overview' ? (
                <OverviewTab
                  token={token}
                  copy={copy.overview}
                  errorHeading={copy.errorHeading}
                  notify={notify}
                  onUnauthorized={onUnauthorized}
                />
              ) : (
                <CampaignsTab
                  token={token}
                  copy={copy.campaigns}
                  pagerCopy={copy.pager}
                  pagerLabel={copy.pager.campaigns}
                  articles={articles}
                  notify={notify}
                  onUnauthorized={onUnauthorized}
                />
              )}
            </Suspense>
          )}
        </div>
      ))}
      {toastRegion}
    </div>
  );
}

/**
 * The newsletter admin (SPEC §2): subscribers, inquiries and newsletter issues behind the admin token.
 * Hydrated with client:load.
 */
export default function AdminPanel(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Panel {...props} />
    </IslandErrorBoundary>
  );
}
