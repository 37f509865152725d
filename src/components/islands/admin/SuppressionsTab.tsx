import { useCallback, useEffect, useId, useState } from 'react';
import {
  fetchAllSuppressions,
  fetchSuppressionPage,
  isAuthError,
  liftSuppression,
  type Suppression,
  type SuppressionReason,
} from './api.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { DeliverabilitySummary } from './DeliverabilitySummary.tsx';
import { downloadCsv } from './download.ts';
import { localDateTime, plural } from './format.ts';
import { ListFallback } from './ListFallback.tsx';
import { Pager } from './Pager.tsx';
import { SEARCH_DELAY_MS } from './SubscriberTable.tsx';
import type { TabProps } from './tab-props.ts';
import { usePagedList, type Paging } from './usePagedList.ts';

const REASONS: readonly SuppressionReason[] = [
  'hard_bounce',
  'soft_bounce',
  'complaint',
  'unsubscribe',
  'erased',
];
/** Reasons the owner may lift here; the server refuses the others (409). */
const LIFTABLE: ReadonlySet<SuppressionReason> = new Set(['hard_bounce', 'soft_bounce']);

/**
 * The Suppression list tab (owner, editor): every address that gets no newsletter, why, who reported it and
 * since when, searchable and exportable as CSV. The owner lifts a bounce; a complaint or an unsubscribe ends
 * only with a new sign-up that is confirmed.
 */
export function SuppressionsTab({ token, copy: panelCopy, account, notify, onUnauthorized }: TabProps) {
  const { suppressions: copy, pager: pagerCopy } = panelCopy;
  const id = useId();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [reason, setReason] = useState<SuppressionReason | ''>('');
  const [lifting, setLifting] = useState<Suppression | null>(null);
  const [exporting, setExporting] = useState(false);
  const [version, setVersion] = useState(0);
  const owner = account.role === 'owner';

  const load = useCallback(
    (paging: Paging, signal: AbortSignal) => fetchSuppressionPage(token, { ...paging, q, reason }, signal),
    [token, q, reason],
  );
  const { list, reload, pager } = usePagedList(load, onUnauthorized, 25);
  // Only the setter inside: the same function whatever render it comes from.
  const { onPage } = pager;

  // Typing waits for a pause before the list is asked again; a new search starts on the first page.
  useEffect(() => {
    const next = search.trim();
    if (next === q) return;
    const timer = window.setTimeout(() => {
      setQ(next);
      onPage(1);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, q]); // onPage only calls a state setter: the first render's is as good as any

  const fail = (error: unknown, message: string) => {
    if (isAuthError(error)) onUnauthorized();
    else notify(message, 'error');
  };

  const exportCsv = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      const [rows, { csvFileName, tableCsv }] = await Promise.all([
        fetchAllSuppressions(token),
        import('../../../lib/subscribers-csv.ts'),
      ]);
      const csv = tableCsv(
        ['id', 'email', 'reason', 'source', 'since', 'detail'],
        rows.map((row) => [row.id, row.email, row.reason, row.source, row.createdAt, row.detail]),
      );
      downloadCsv(csv, csvFileName(new Date(), 'suppressions'));
      notify(copy.exported);
    } catch (error) {
      fail(error, copy.export_failed);
    } finally {
      setExporting(false);
    }
  };

  const lift = async () => {
    const target = lifting;
    setLifting(null);
    if (!target) return;
    try {
      await liftSuppression(token, target.id);
      notify(copy.lifted);
    } catch (error) {
      fail(error, copy.lift_failed);
    } finally {
      reload();
      setVersion((n) => n + 1);
    }
  };

  return (
    <div className="admin-suppressions">
      <div className="admin-campaigns__head">
        <div>
          <h2 id={`${id}-heading`} className="admin-campaigns__title">
            {copy.heading}
          </h2>
          <p className="admin-campaigns__intro">{copy.intro}</p>
        </div>
      </div>
      <DeliverabilitySummary token={token} copy={copy} onUnauthorized={onUnauthorized} version={version} />
      <div className="admin-toolbar">
        <form
          role="search"
          className="admin-search"
          onSubmit={(event) => {
            event.preventDefault();
            setQ(search.trim());
            onPage(1);
          }}
        >
          <label htmlFor={`${id}-search`} className="admin-label">
            {copy.search}
          </label>
          <div className="admin-search__field">
            <input
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
          </div>
        </form>
        <div className="admin-filter">
          <label htmlFor={`${id}-reason`} className="admin-label">
            {copy.reason_filter}
          </label>
          <select
            id={`${id}-reason`}
            className="admin-select"
            value={reason}
            onChange={(event) => {
              setReason(event.target.value as SuppressionReason | '');
              onPage(1);
            }}
          >
            <option value="">{copy.reason_all}</option>
            {REASONS.map((name) => (
              <option key={name} value={name}>
                {copy[`reason_${name}`]}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-toolbar__actions">
          <button type="button" className="admin-button" aria-disabled={exporting} onClick={exportCsv}>
            {copy.export}
          </button>
        </div>
      </div>
      <ListFallback
        list={list}
        copy={{ ...copy, empty: q || reason ? copy.empty_filtered : copy.empty }}
        onRetry={reload}
      />
      {list.status === 'ready' && list.total > 0 && (
        <>
          <p className="admin-summary" aria-live="polite">
            {plural({ one: copy.total_one, other: copy.total_other }, list.total)}
          </p>
          {!owner && <p className="admin-hint">{copy.lift_only_owner}</p>}
          <div className="admin-table-wrap">
            <table className="admin-table admin-activity-table" aria-labelledby={`${id}-heading`}>
              <thead>
                <tr>
                  <th scope="col">{copy.col_address}</th>
                  <th scope="col">{copy.col_reason}</th>
                  <th scope="col">{copy.col_source}</th>
                  <th scope="col">{copy.col_date}</th>
                  <th scope="col">{copy.col_detail}</th>
                  {owner && <th scope="col">{copy.col_action}</th>}
                </tr>
              </thead>
              <tbody>
                {list.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row" data-label={copy.col_address} className="admin-table__email">
                      {row.email ?? <span className="admin-muted">{copy.address_hidden}</span>}
                    </th>
                    <td data-label={copy.col_reason}>{copy[`reason_${row.reason}`]}</td>
                    <td data-label={copy.col_source}>{copy[`source_${row.source}`]}</td>
                    <td data-label={copy.col_date}>
                      <time dateTime={row.createdAt}>{localDateTime(row.createdAt)}</time>
                    </td>
                    <td data-label={copy.col_detail} className="admin-activity-table__target">
                      {row.detail ?? '–'}
                    </td>
                    {owner && (
                      <td data-label={copy.col_action}>
                        {LIFTABLE.has(row.reason) && (
                          <button
                            type="button"
                            className="admin-button admin-button--small"
                            onClick={() => setLifting(row)}
                          >
                            {copy.lift}
                            <span className="visually-hidden"> {row.email}</span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label={pagerCopy.suppressions} copy={pagerCopy} {...pager} />
        </>
      )}
      <ConfirmDialog
        open={lifting !== null}
        title={copy.lift_title}
        text={copy.lift_text}
        detail={lifting?.email ?? ''}
        confirmLabel={copy.lift_accept}
        cancelLabel={copy.lift_cancel}
        onConfirm={lift}
        onCancel={() => setLifting(null)}
      />
    </div>
  );
}
