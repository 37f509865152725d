import { lazy, Suspense, useCallback, useEffect, useId, useState } from 'react';
import type { TabProps } from '../tab-props.ts';
import { isAbort, isAuthError, type ListState } from '../api.ts';
import { calendarDate, plural } from '../format.ts';
import { ListFallback } from '../ListFallback.tsx';
import {
  fetchContent,
  saveEditorsPublish,
  type AuthorOption,
  type Collection,
  type Opening,
  type PieceSummary,
} from './content-api.ts';

// The editor (and its rich-text library) loads when a piece is opened, not with the list.
const PieceEditor = lazy(() => import('./PieceEditor.tsx').then((m) => ({ default: m.PieceEditor })));

type LangFilter = 'all' | 'en' | 'de';

/**
 * The Content tab (owners and editors; issue 37): every article and news item in both languages with its
 * status, date, author and German twin, and the editor for one of them.
 */
export function ContentTab({ token, account, copy: panelCopy, notify, onUnauthorized }: TabProps) {
  const copy = panelCopy.content;
  const id = useId();
  const [list, setList] = useState<ListState<PieceSummary>>({ status: 'loading', rows: [], total: 0 });
  const [authors, setAuthors] = useState<AuthorOption[]>([]);
  const [mayPublish, setMayPublish] = useState(false);
  const [editorsPublish, setEditorsPublish] = useState<boolean | null>(null);
  const [savingSetting, setSavingSetting] = useState(false);
  const owner = account.role === 'owner';
  const [filter, setFilter] = useState<LangFilter>('all');
  const [opening, setOpening] = useState<Opening | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((n) => n + 1), []);

  // The list and the team's names load on opening the tab and again after the editor closes (`reload`), never
  // aborted by opening a piece: a writer who clicks "New article" before the list arrives still gets the authors.
  useEffect(() => {
    const controller = new AbortController();
    fetchContent(token, controller.signal).then(
      (content) => {
        setList({ status: 'ready', rows: content.items, total: content.items.length });
        setAuthors(content.authors);
        setMayPublish(content.mayPublish);
        setEditorsPublish(content.editorsPublish);
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setList({ status: 'failed', rows: [], total: 0 });
      },
    );
    return () => controller.abort();
  }, [token, version, onUnauthorized]);

  if (opening) {
    return (
      <Suspense
        fallback={
          <p className="admin-status" role="status">
            {copy.loading_editor}
          </p>
        }
      >
        <PieceEditor
          key={`${opening.ref.collection}/${opening.ref.lang}/${opening.ref.id}`}
          opening={opening}
          token={token}
          authors={authors}
          mayPublish={mayPublish}
          role={account.role}
          copy={copy}
          notify={notify}
          onUnauthorized={onUnauthorized}
          onOpen={setOpening}
          onClose={() => {
            setOpening(null);
            reload();
          }}
        />
      </Suspense>
    );
  }

  /** The owner allows editors to publish, or takes it back; the server logs who did. */
  const switchEditorsPublish = async (allowed: boolean) => {
    setSavingSetting(true);
    try {
      setEditorsPublish(await saveEditorsPublish(token, allowed));
      notify(allowed ? copy.editors_publish_on : copy.editors_publish_off);
    } catch (error) {
      if (isAuthError(error)) return onUnauthorized();
      notify(copy.editors_publish_failed, 'error');
    } finally {
      setSavingSetting(false);
    }
  };

  const rows = list.rows.filter((row) => filter === 'all' || row.lang === filter);
  const authorName = (authorId: string) => authors.find((a) => a.id === authorId)?.name ?? authorId;
  const startNew = (collection: Collection) =>
    setOpening({ ref: { collection, lang: 'en', id: '' }, isNew: true });
  return (
    <div className="admin-content">
      <div className="admin-campaigns__head">
        <div>
          <h2 id={`${id}-heading`} className="admin-campaigns__title">
            {copy.heading}
          </h2>
          <p className="admin-campaigns__intro">{copy.intro}</p>
        </div>
        <div className="admin-content__new">
          <button
            type="button"
            className="admin-button admin-button--primary"
            onClick={() => startNew('blog')}
          >
            {copy.new_article}
          </button>
          <button type="button" className="admin-button" onClick={() => startNew('news')}>
            {copy.new_news}
          </button>
        </div>
      </div>
      <div className="admin-content__filter">
        <label htmlFor={`${id}-lang`} className="admin-label">
          {copy.filter_lang}
        </label>
        <select
          id={`${id}-lang`}
          className="admin-select"
          value={filter}
          onChange={(event) => setFilter(event.target.value as LangFilter)}
        >
          <option value="all">{copy.lang_all}</option>
          <option value="en">{copy.lang_en}</option>
          <option value="de">{copy.lang_de}</option>
        </select>
      </div>
      <ListFallback list={list} copy={copy} onRetry={reload} />
      {list.status === 'ready' && list.total > 0 && (
        <>
          <p className="admin-summary">
            {plural({ one: copy.total_one, other: copy.total_other }, rows.length)}
          </p>
          <div className="admin-table-wrap">
            <table className="admin-table admin-content__table" aria-labelledby={`${id}-heading`}>
              <thead>
                <tr>
                  <th scope="col">{copy.col_title}</th>
                  <th scope="col">{copy.col_kind}</th>
                  <th scope="col">{copy.col_lang}</th>
                  <th scope="col">{copy.col_date}</th>
                  <th scope="col">{copy.col_author}</th>
                  <th scope="col">{copy.col_status}</th>
                  <th scope="col">{copy.col_twin}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={`${row.collection}/${row.lang}/${row.id}`}>
                    <th scope="row">
                      <button
                        type="button"
                        className="admin-link-button"
                        lang={row.lang}
                        onClick={() => setOpening({ ref: row, isNew: false })}
                      >
                        {row.title}
                      </button>
                    </th>
                    <td>{row.collection === 'blog' ? copy.kind_blog : copy.kind_news}</td>
                    <td>{row.lang === 'en' ? copy.lang_en : copy.lang_de}</td>
                    <td>{/^\d{4}-\d{2}-\d{2}$/.test(row.date) ? calendarDate(row.date) : row.date}</td>
                    <td>{authorName(row.author)}</td>
                    <td>
                      <span
                        className={`admin-badge admin-content__status admin-content__status--${row.status}`}
                      >
                        {copy[`status_${row.status}`]}
                      </span>
                    </td>
                    <td>{twinText(row, copy)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <p className="admin-hint">{mayPublish ? copy.hint_publish : copy.hint_review}</p>
      {owner && editorsPublish !== null && (
        <div className="admin-content__setting">
          <label className="admin-check">
            <input
              type="checkbox"
              checked={editorsPublish}
              aria-describedby={`${id}-editors-publish-hint`}
              aria-disabled={savingSetting}
              onChange={(event) => {
                if (!savingSetting) void switchEditorsPublish(event.target.checked);
              }}
            />
            {copy.editors_publish}
          </label>
          <p id={`${id}-editors-publish-hint`} className="admin-hint">
            {copy.editors_publish_hint}
          </p>
        </div>
      )}
    </div>
  );
}

function twinText(row: PieceSummary, copy: TabProps['copy']['content']): string {
  if (row.lang !== 'en' || !row.twin) return copy.twin_none;
  if (!row.twin.exists) return copy.twin_missing;
  return row.twin.stale ? copy.twin_stale : copy.twin_current;
}
