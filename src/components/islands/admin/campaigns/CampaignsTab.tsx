import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { fetchCampaignPage, type Campaign } from '../api.ts';
import type { CampaignsCopy } from '../copy.ts';
import type { TabProps } from '../tab-props.ts';
import { belgradeMoment, fill, localDateTime, plural } from '../format.ts';
import { DeliverabilitySummary } from '../DeliverabilitySummary.tsx';
import { ListFallback } from '../ListFallback.tsx';
import { Pager } from '../Pager.tsx';
import { usePagedList, type Paging } from '../usePagedList.ts';
import { CampaignView } from './CampaignView.tsx';
import { forgetDraft, readDraft, type StoredDraft } from './draft-store.ts';
import type { CampaignsProps } from './types.ts';

/** Sent copies against the snapshot, e.g. "118 of 120"; nothing for a draft. */
const delivered = (campaign: Campaign, copy: CampaignsCopy) =>
  campaign.recipients === null
    ? '–'
    : fill(copy.delivered_value, { sent: campaign.counts.sent, recipients: campaign.recipients });

/** Newsletter issues: the list, newest first, and one issue at a time to edit, send or follow. */
export function CampaignsTab(props: CampaignsProps) {
  const { token, copy, pagerCopy, pagerLabel, onUnauthorized, notify } = props;
  const id = useId();
  const [kept, setKept] = useState<StoredDraft | null>(readDraft);
  const [restoring, setRestoring] = useState(Boolean(props.resumeDraft && kept));
  const [open, setOpen] = useState<number | 'new' | null>(() =>
    props.resumeDraft && kept ? (kept.id ?? 'new') : null,
  );
  const load = useCallback(
    (paging: Paging, signal: AbortSignal) => fetchCampaignPage(token, paging, signal),
    [token],
  );
  const { list, reload, pager } = usePagedList(load, onUnauthorized, 25);
  const newButton = useRef<HTMLButtonElement>(null);
  const returning = useRef(false);

  // Back from an issue, focus returns to where the list starts.
  useEffect(() => {
    if (open === null && returning.current) {
      returning.current = false;
      newButton.current?.focus();
    }
  }, [open]);

  if (open !== null) {
    return (
      <CampaignView
        {...props}
        key={open}
        id={open === 'new' ? null : open}
        restored={restoring ? kept?.content : undefined}
        onOpen={(next) => {
          setRestoring(false);
          setOpen(next);
        }}
        onClose={() => {
          returning.current = true;
          setRestoring(false);
          setKept(readDraft());
          setOpen(null);
          reload();
        }}
      />
    );
  }

  return (
    <div className="admin-campaigns">
      <div className="admin-campaigns__head">
        <div>
          <h2 id={`${id}-heading`} className="admin-campaigns__title">
            {copy.heading}
          </h2>
          <p className="admin-campaigns__intro">{copy.intro}</p>
        </div>
        <button
          ref={newButton}
          type="button"
          className="admin-button admin-button--primary"
          onClick={() => setOpen('new')}
        >
          {copy.new}
        </button>
      </div>
      {kept && (
        <div className="admin-notice" role="status">
          <p>
            {copy.draft_kept} <strong>{kept.content.subject.trim() || copy.draft_untitled}</strong>
          </p>
          <div className="admin-notice__actions">
            <button
              type="button"
              className="admin-button admin-button--small admin-button--primary"
              onClick={() => {
                setRestoring(true);
                setOpen(kept.id ?? 'new');
              }}
            >
              {copy.draft_restore}
            </button>
            <button
              type="button"
              className="admin-button admin-button--small admin-button--danger-quiet"
              onClick={() => {
                forgetDraft();
                setKept(null);
                notify(copy.draft_discarded);
              }}
            >
              {copy.draft_discard}
            </button>
          </div>
        </div>
      )}
      {props.deliverabilityCopy && (
        <DeliverabilitySummary
          token={token}
          copy={props.deliverabilityCopy}
          onUnauthorized={onUnauthorized}
        />
      )}
      <ListFallback list={list} copy={copy} onRetry={reload} />
      {list.status === 'ready' && list.total > 0 && (
        <>
          <p className="admin-summary">
            {plural({ one: copy.total_one, other: copy.total_other }, list.total)}
          </p>
          <div className="admin-table-wrap">
            <table className="admin-table admin-campaign-table" aria-labelledby={`${id}-heading`}>
              <thead>
                <tr>
                  <th scope="col">{copy.col_subject}</th>
                  <th scope="col">{copy.col_status}</th>
                  <th scope="col">{copy.col_created}</th>
                  <th scope="col">{copy.col_lang}</th>
                  <th scope="col">{copy.col_delivered}</th>
                  <th scope="col">
                    <span className="visually-hidden">{copy.open}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((campaign) => (
                  <tr key={campaign.id}>
                    <td className="admin-campaign-table__subject">{campaign.subject}</td>
                    <td>
                      <span className={`admin-campaign-status admin-campaign-status--${campaign.status}`}>
                        {copy[`status_${campaign.status}`]}
                      </span>
                      {campaign.status === 'draft' && campaign.scheduledAt && (
                        <span className="admin-campaign-table__scheduled">
                          {fill(copy.list_scheduled, { belgrade: belgradeMoment(campaign.scheduledAt) })}
                        </span>
                      )}
                    </td>
                    <td>
                      <time dateTime={campaign.createdAt}>{localDateTime(campaign.createdAt)}</time>
                    </td>
                    <td>{copy[`lang_${campaign.lang}`]}</td>
                    <td>{delivered(campaign, copy)}</td>
                    <td className="admin-campaign-table__action">
                      <button
                        type="button"
                        className="admin-button admin-button--small"
                        aria-label={`${copy.open}: ${campaign.subject}`}
                        onClick={() => setOpen(campaign.id)}
                      >
                        {copy.open}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label={pagerLabel} copy={pagerCopy} {...pager} />
        </>
      )}
    </div>
  );
}

/** The panel's newsletter-issues tab. */
export const CampaignsPanel = ({ copy, ...props }: TabProps) => (
  <CampaignsTab
    {...props}
    copy={copy.campaigns}
    pagerCopy={copy.pager}
    pagerLabel={copy.pager.campaigns}
    deliverabilityCopy={copy.suppressions}
  />
);
