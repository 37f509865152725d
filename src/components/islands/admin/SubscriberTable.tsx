import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  eraseSubscriber,
  fetchAllSubscribers,
  fetchSubscriberPage,
  isAbort,
  isAuthError,
  type ListState,
  type Subscriber,
  type SubscriberQuery,
  type SubscriberSort,
  type SubscriberStatus,
} from './api.ts';
import { copyText } from './clipboard.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ContactImport } from './ContactImport.tsx';
import { downloadCsv } from './download.ts';
import type { TabProps } from './tab-props.ts';
import type { PagerCopy, RecordCopy, SubscribersCopy, SuppressionsCopy } from './copy.ts';
import { fill, localDateTime, plural } from './format.ts';
import { Pager } from './Pager.tsx';
import { SubscriberRecord } from './SubscriberRecord.tsx';
import type { ToastTone } from './Toasts.tsx';

/** Typing settles for this long before the list is asked again. */
export const SEARCH_DELAY_MS = 300;
const DEFAULT_QUERY: SubscriberQuery = { q: '', sort: 'id', status: '', page: 1, pageSize: 25 };

type Column = 'id' | 'email' | 'created_temp';

interface Props {
  token: string;
  copy: SubscribersCopy;
  recordCopy: RecordCopy;
  /** The suppression list's words, for the reason a record shows. */
  suppressionsCopy: SuppressionsCopy;
  pagerCopy: PagerCopy;
  pagerLabel: string;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
  /** Changes when the list changed elsewhere (an import ended): the page is asked again. */
  changes?: number;
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | undefined }) {
  return (
    <svg className="admin-sort" viewBox="0 0 12 16" aria-hidden="true" focusable="false">
      <path d="M2.5 6L6 2.5 9.5 6" className={direction === 'ascending' ? 'is-on' : undefined} />
      <path d="M2.5 10L6 13.5 9.5 10" className={direction === 'descending' ? 'is-on' : undefined} />
    </svg>
  );
}

export function SubscriberTable({
  token,
  copy,
  recordCopy,
  suppressionsCopy,
  pagerCopy,
  pagerLabel,
  notify,
  onUnauthorized,
  changes = 0,
}: Props) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState<SubscriberQuery>(DEFAULT_QUERY);
  const [list, setList] = useState<ListState<Subscriber>>({ status: 'loading', rows: [], total: 0 });
  const [busy, setBusy] = useState(true);
  const [reload, setReload] = useState(0);
  const [everyone, setEveryone] = useState<number | null>(null);
  const [awaiting, setAwaiting] = useState<number | null>(null);
  const [pending, setPending] = useState<Subscriber | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [working, setWorking] = useState<'copy' | 'export' | null>(null);
  const [focusRow, setFocusRow] = useState<number | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const searchField = useRef<HTMLInputElement>(null);

  // Typing waits for a pause; the new search starts on page 1.
  useEffect(() => {
    const q = search.trim();
    if (q === query.q) return;
    const timer = window.setTimeout(() => setQuery((p) => ({ ...p, q, page: 1 })), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, query.q]);

  useEffect(() => {
    const controller = new AbortController();
    setBusy(true);
    fetchSubscriberPage(token, query, controller.signal).then(
      ({ rows, total }) => {
        // Past the last page (rows deleted meanwhile): go to the page that is now the last.
        if (rows.length === 0 && total > 0 && query.page > 1) {
          setQuery((p) => ({ ...p, page: Math.ceil(total / p.pageSize) }));
          return;
        }
        setList({ status: 'ready', rows, total });
        if (!query.q && !query.status) setEveryone(total);
        setBusy(false);
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        // The status only: never the request, whose headers carry the token.
        console.error('Subscriber list failed to load:', (error as { status?: number }).status ?? 'error');
        setList({ status: 'failed', rows: [], total: 0 });
        setBusy(false);
      },
    );
    return () => controller.abort();
  }, [token, query, reload, changes, onUnauthorized]);

  // How many sign-ups wait for confirmation, for the summary line (one row is enough to read the count).
  useEffect(() => {
    const controller = new AbortController();
    fetchSubscriberPage(token, { ...DEFAULT_QUERY, status: 'pending', pageSize: 1 }, controller.signal).then(
      ({ total }) => setAwaiting(total),
      () => setAwaiting(null),
    );
    return () => controller.abort();
  }, [token, reload, changes]);

  // After a deletion, focus moves to the Delete button now in the removed row's place, or to the search.
  useEffect(() => {
    if (focusRow === null) return;
    const buttons = table.current?.querySelectorAll<HTMLButtonElement>('[data-delete]');
    const target = buttons?.[Math.min(focusRow, buttons.length - 1)] ?? searchField.current;
    target?.focus();
    setFocusRow(null);
  }, [focusRow, list]);

  const sortBy = (column: Column) =>
    setQuery((p) => ({ ...p, page: 1, sort: (p.sort === column ? `-${column}` : column) as SubscriberSort }));
  const direction = (column: Column) =>
    query.sort === column ? 'ascending' : query.sort === `-${column}` ? 'descending' : undefined;

  const fail = (error: unknown, message: string) => {
    if (isAuthError(error)) onUnauthorized();
    else notify(message, 'error');
  };

  const copyOne = async (email: string) => {
    try {
      await copyText(email);
      notify(copy.copied);
    } catch {
      notify(copy.copy_failed, 'error');
    }
  };

  const copyAll = async () => {
    if (working) return;
    setWorking('copy');
    try {
      // Only confirmed addresses: a pending one never agreed, as far as we can prove, to receive mail.
      await copyText(
        fetchAllSubscribers(token, 'confirmed').then((rows) => rows.map((r) => r.email).join(', ')),
      );
      notify(copy.copied_all);
    } catch (error) {
      fail(error, copy.copy_all_failed);
    } finally {
      setWorking(null);
    }
  };

  const exportCsv = async () => {
    if (working) return;
    setWorking('export');
    try {
      // csv-stringify loads with the first export, not with the page.
      const [rows, { csvFileName, subscribersCsv }] = await Promise.all([
        fetchAllSubscribers(token),
        import('../../../lib/subscribers-csv.ts'),
      ]);
      downloadCsv(subscribersCsv(rows), csvFileName());
      notify(copy.exported);
    } catch (error) {
      fail(error, copy.export_failed);
    } finally {
      setWorking(null);
    }
  };

  // An erasure from the record: the row goes, and focus lands where it was, as after a delete.
  const erased = useCallback(
    (id: number) => {
      setViewing(null);
      setFocusRow(
        Math.max(
          0,
          list.rows.findIndex((r) => r.id === id),
        ),
      );
      setEveryone((n) => (n === null ? n : n - 1));
      setReload((n) => n + 1);
    },
    [list.rows],
  );
  const closeRecord = useCallback(() => setViewing(null), []);

  const confirmDelete = async () => {
    const target = pending;
    setPending(null);
    if (!target) return;
    const index = list.rows.findIndex((r) => r.id === target.id);
    setDeleting(target.id);
    try {
      await eraseSubscriber(token, target.id);
      setList((l) => ({ ...l, rows: l.rows.filter((r) => r.id !== target.id), total: l.total - 1 }));
      setEveryone((n) => (n === null ? n : n - 1));
      notify(copy.deleted);
      setFocusRow(Math.max(0, index));
      // Refill the page from the server so it stays full.
      setReload((n) => n + 1);
    } catch (error) {
      fail(error, copy.delete_failed);
      // Someone else may have removed it already: show the list as it is now.
      setReload((n) => n + 1);
    } finally {
      setDeleting(null);
    }
  };

  const clearSearch = () => {
    setSearch('');
    setQuery((p) => ({ ...p, q: '', page: 1 }));
    searchField.current?.focus();
  };

  const headerCell = (column: Column, label: string) => {
    const sorted = direction(column);
    return (
      <th scope="col" aria-sort={sorted} className={`admin-table__${column}`}>
        <button type="button" className="admin-table__sort" onClick={() => sortBy(column)}>
          {label}
          <SortIcon direction={sorted} />
        </button>
      </th>
    );
  };

  // Everyone on the list (known once a load without search has answered), then the matches of a search.
  const summary = [
    everyone !== null && plural({ one: copy.total_one, other: copy.total_other }, everyone),
    awaiting ? fill(copy.pending_count, { count: awaiting }) : '',
    query.q &&
      list.status === 'ready' &&
      !busy &&
      plural({ one: copy.matches_one, other: copy.matches_other }, list.total, { q: query.q }),
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <div className="admin-subscribers">
      <h2 id={`${id}-heading`} className="visually-hidden">
        {copy.heading}
      </h2>
      <div className="admin-toolbar">
        <form
          role="search"
          className="admin-search"
          onSubmit={(event) => {
            event.preventDefault();
            setQuery((p) => ({ ...p, q: search.trim(), page: 1 }));
          }}
        >
          <label htmlFor={`${id}-search`} className="admin-label">
            {copy.search}
          </label>
          <div className="admin-search__field">
            <svg className="admin-search__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
              <path d="M12.5 12.5L17 17" stroke="currentColor" strokeWidth="1.8" />
            </svg>
            <input
              ref={searchField}
              id={`${id}-search`}
              type="search"
              className="admin-input"
              value={search}
              maxLength={254}
              autoComplete="off"
              spellCheck={false}
              placeholder={copy.search_hint}
              onChange={(event) => setSearch(event.target.value)}
            />
            {search && (
              <button
                type="button"
                className="admin-search__clear"
                aria-label={copy.clear_search}
                onClick={clearSearch}
              >
                <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                  <path d="M5.5 5.5l9 9M14.5 5.5l-9 9" fill="none" stroke="currentColor" strokeWidth="1.8" />
                </svg>
              </button>
            )}
          </div>
        </form>
        <div className="admin-filter">
          <label htmlFor={`${id}-status`} className="admin-label">
            {copy.status_filter}
          </label>
          <select
            id={`${id}-status`}
            className="admin-select"
            value={query.status}
            onChange={(event) =>
              setQuery((p) => ({ ...p, status: event.target.value as SubscriberStatus | '', page: 1 }))
            }
          >
            <option value="">{copy.status_all}</option>
            <option value="confirmed">{copy.status_confirmed}</option>
            <option value="pending">{copy.status_pending}</option>
            <option value="bounced">{copy.status_bounced}</option>
            <option value="complained">{copy.status_complained}</option>
          </select>
        </div>
        <div className="admin-toolbar__actions">
          <p id={`${id}-copy-hint`} className="visually-hidden">
            {copy.copy_all_hint}
          </p>
          <button
            type="button"
            className="admin-button"
            aria-disabled={working !== null}
            aria-describedby={`${id}-copy-hint`}
            title={copy.copy_all_hint}
            onClick={copyAll}
          >
            <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <rect
                x="6.5"
                y="6.5"
                width="10"
                height="10"
                rx="1.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
              />
              <path d="M13.5 4.5v-1h-10v10h1" fill="none" stroke="currentColor" strokeWidth="1.6" />
            </svg>
            {copy.copy_all}
          </button>
          <button type="button" className="admin-button" aria-disabled={working !== null} onClick={exportCsv}>
            <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path d="M10 3v9M6 8.5l4 4 4-4M4 15.5h12" fill="none" stroke="currentColor" strokeWidth="1.6" />
            </svg>
            {copy.export}
          </button>
        </div>
      </div>

      <p className="admin-summary" aria-live="polite">
        {summary}
      </p>

      {list.status === 'loading' ? (
        <p className="admin-status" role="status">
          {copy.loading}
        </p>
      ) : list.status === 'failed' ? (
        <div className="admin-empty" role="status">
          <p>{copy.load_failed}</p>
          <button type="button" className="admin-button" onClick={() => setReload((n) => n + 1)}>
            {copy.retry}
          </button>
        </div>
      ) : list.rows.length === 0 && !busy ? (
        <div className="admin-empty" role="status">
          <p>
            {query.q ? fill(copy.no_match, { q: query.q }) : query.status ? copy.empty_filtered : copy.empty}
          </p>
          {query.q && (
            <button type="button" className="admin-button" onClick={clearSearch}>
              {copy.clear_search}
            </button>
          )}
        </div>
      ) : (
        <>
          <div className="admin-table-wrap">
            <table
              ref={table}
              className="admin-table"
              aria-labelledby={`${id}-heading`}
              aria-busy={busy}
              data-loading={busy || undefined}
            >
              <thead>
                <tr>
                  {headerCell('id', copy.id)}
                  {headerCell('email', copy.email)}
                  {headerCell('created_temp', copy.date)}
                  <th scope="col" className="admin-table__action">
                    {copy.action}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((row) => (
                  <tr key={row.id} data-id={row.id}>
                    <td className="admin-table__id">{row.id}</td>
                    <th scope="row" className="admin-table__email">
                      <span className="admin-table__address">{row.email}</span>
                      {row.status !== 'confirmed' && (
                        <span className={`admin-badge admin-badge--${row.status}`}>
                          {copy[row.status]}
                          <span className="visually-hidden">: {copy[`${row.status}_hint`]}</span>
                        </span>
                      )}
                    </th>
                    <td className="admin-table__created_temp">
                      {row.created_temp ? (
                        <time dateTime={row.created_temp} title={row.created_temp}>
                          {localDateTime(row.created_temp)}
                        </time>
                      ) : (
                        <span className="admin-muted">{copy.missing_date}</span>
                      )}
                    </td>
                    <td className="admin-table__action">
                      <div className="admin-row-actions">
                        <button
                          type="button"
                          className="admin-button admin-button--small"
                          onClick={() => setViewing(row.id)}
                        >
                          {recordCopy.open}
                          <span className="visually-hidden"> {row.email}</span>
                        </button>
                        <button
                          type="button"
                          className="admin-button admin-button--small"
                          onClick={() => copyOne(row.email)}
                        >
                          {copy.copy}
                          <span className="visually-hidden"> {row.email}</span>
                        </button>
                        <button
                          type="button"
                          className="admin-button admin-button--small admin-button--danger-quiet"
                          data-delete
                          aria-disabled={deleting === row.id}
                          onClick={() => deleting !== row.id && setPending(row)}
                        >
                          {copy.delete}
                          <span className="visually-hidden"> {row.email}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label={pagerLabel}
            page={query.page}
            pageSize={query.pageSize}
            total={list.total}
            copy={pagerCopy}
            onPage={(page) => setQuery((p) => ({ ...p, page }))}
            onPageSize={(pageSize) => setQuery((p) => ({ ...p, pageSize, page: 1 }))}
          />
        </>
      )}

      <SubscriberRecord
        token={token}
        id={viewing}
        copy={recordCopy}
        reasons={suppressionsCopy}
        notify={notify}
        onUnauthorized={onUnauthorized}
        onClose={closeRecord}
        onErased={erased}
      />
      <ConfirmDialog
        open={pending !== null}
        title={copy.confirm_title}
        text={copy.confirm_text}
        detail={pending?.email ?? ''}
        confirmLabel={copy.confirm_accept}
        cancelLabel={copy.confirm_cancel}
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}

/** The panel's subscribers tab: the contact import, folded away until opened, above the list. */
export function SubscribersTab({ copy, token, notify, onUnauthorized }: TabProps) {
  const [changes, setChanges] = useState(0);
  const imported = useCallback(() => setChanges((n) => n + 1), []);
  return (
    <>
      <details className="admin-import-panel">
        <summary className="admin-import-panel__summary">{copy.subscriberImport.title}</summary>
        <ContactImport
          token={token}
          copy={copy.subscriberImport}
          notify={notify}
          onUnauthorized={onUnauthorized}
          onFinished={imported}
        />
      </details>
      <SubscriberTable
        token={token}
        copy={copy.subscribers}
        recordCopy={copy.subscriberRecord}
        suppressionsCopy={copy.suppressions}
        pagerCopy={copy.pager}
        pagerLabel={copy.pager.subscribers}
        notify={notify}
        onUnauthorized={onUnauthorized}
        changes={changes}
      />
    </>
  );
}
