import { useCallback, useEffect, useId, useState } from 'react';
import type { TabProps } from '../tab-props.ts';
import { isAbort } from '../api.ts';
import { fill, localDateTime, plural } from '../format.ts';
import { ListFallback } from '../ListFallback.tsx';
import { Pager } from '../Pager.tsx';
import { usePagedList, type Paging } from '../usePagedList.ts';
import { fetchActivityActions, fetchActivityPage, fetchTeam, type Member } from './team-api.ts';

/**
 * The readable name of a logged action; the copy keys write the dots of `auth.sign_in` as underscores. An
 * action without a name (added on the server later) shows as it is stored.
 * @example actionLabel({ auth_sign_in: 'Signed in' }, 'auth.sign_in') // 'Signed in'
 */
export const actionLabel = (names: Record<string, string>, action: string) =>
  names[action.replace(/\./g, '_')] ?? action;

/**
 * The owner's Activity tab: the append-only log, newest first, a page at a time, filtered by action and by
 * person. Actions show by their readable name, with the dotted name the log stores beneath.
 */
export function ActivityTab({ token, copy: panelCopy, onUnauthorized }: TabProps) {
  const { activity: copy, pager: pagerCopy } = panelCopy;
  const id = useId();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [actions, setActions] = useState<string[]>([]);
  const [people, setPeople] = useState<Member[]>([]);

  // The filters' choices: failures leave a filter with "All" only, the log itself still loads.
  useEffect(() => {
    const controller = new AbortController();
    const ignore = (error: unknown) => {
      if (!isAbort(error)) console.error('An activity filter failed to load');
    };
    fetchActivityActions(token, controller.signal).then(setActions, ignore);
    fetchTeam(token, controller.signal).then(setPeople, ignore);
    return () => controller.abort();
  }, [token]);

  const load = useCallback(
    (paging: Paging, signal: AbortSignal) => fetchActivityPage(token, { ...paging, action, actor }, signal),
    [token, action, actor],
  );
  const { list, reload, pager } = usePagedList(load, onUnauthorized, 25);
  const label = (name: string) => actionLabel(copy.actions, name);

  return (
    <div className="admin-activity">
      <div className="admin-campaigns__head">
        <div>
          <h2 id={`${id}-heading`} className="admin-campaigns__title">
            {copy.heading}
          </h2>
          <p className="admin-campaigns__intro">{copy.intro}</p>
        </div>
      </div>
      <div className="admin-toolbar">
        <div className="admin-filter">
          <label htmlFor={`${id}-action`} className="admin-label">
            {copy.action}
          </label>
          <select
            id={`${id}-action`}
            className="admin-select"
            value={action}
            onChange={(event) => {
              setAction(event.target.value);
              pager.onPage(1);
            }}
          >
            <option value="">{copy.all_actions}</option>
            {actions.map((name) => (
              <option key={name} value={name}>
                {label(name)}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-filter">
          <label htmlFor={`${id}-actor`} className="admin-label">
            {copy.actor}
          </label>
          <select
            id={`${id}-actor`}
            className="admin-select"
            value={actor}
            onChange={(event) => {
              setActor(event.target.value);
              pager.onPage(1);
            }}
          >
            <option value="">{copy.all_actors}</option>
            {people.map((person) => (
              <option key={person.id} value={String(person.id)}>
                {person.name ? `${person.name} (${person.email})` : person.email}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ListFallback list={list} copy={copy} onRetry={reload} />
      {list.status === 'ready' && list.total > 0 && (
        <>
          <p className="admin-summary">
            {plural({ one: copy.total_one, other: copy.total_other }, list.total)}
          </p>
          <div className="admin-table-wrap">
            <table className="admin-table admin-activity-table" aria-labelledby={`${id}-heading`}>
              <thead>
                <tr>
                  <th scope="col">{copy.col_time}</th>
                  <th scope="col">{copy.col_actor}</th>
                  <th scope="col">{copy.col_action}</th>
                  <th scope="col">{copy.col_target}</th>
                  <th scope="col">{copy.col_client}</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label={copy.col_time}>
                      <time dateTime={entry.at}>{localDateTime(entry.at)}</time>
                    </td>
                    <td data-label={copy.col_actor} className="admin-activity-table__actor">
                      {entry.actor?.email ?? <span className="admin-muted">{copy.nobody}</span>}
                    </td>
                    <td data-label={copy.col_action}>
                      {label(entry.action)}
                      <code className="admin-activity-table__code">{entry.action}</code>
                    </td>
                    <td data-label={copy.col_target} className="admin-activity-table__target">
                      {entry.target ?? '–'}
                      {entry.count > 1 && (
                        <span className="admin-muted"> {fill(copy.tally, { count: entry.count })}</span>
                      )}
                    </td>
                    <td data-label={copy.col_client} className="admin-activity-table__client">
                      {entry.client ?? '–'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label={pagerCopy.activity} copy={pagerCopy} {...pager} />
        </>
      )}
    </div>
  );
}
