import { useCallback, useId, useState } from 'react';
import type { MeetingDecisionInput } from '../../../lib/schemas.ts';
import {
  decideMeeting,
  fetchInquiryPage,
  isAuthError,
  retryMail,
  setInquiryHandled,
  type Inquiry,
  type InquiryMail,
} from './api.ts';
import type { TabProps } from './tab-props.ts';
import type { InquiriesCopy, PagerCopy } from './copy.ts';
import { belgradeSlot, fill, localDateTime, plural } from './format.ts';
import { ListFallback } from './ListFallback.tsx';
import { MailStates } from './MailStates.tsx';
import { MeetingDecision } from './MeetingDecision.tsx';
import { MeetingHistory } from './MeetingHistory.tsx';
import { Pager } from './Pager.tsx';
import type { ToastTone } from './Toasts.tsx';
import { usePagedList, type Paging } from './usePagedList.ts';

interface Props {
  token: string;
  copy: InquiriesCopy;
  pagerCopy: PagerCopy;
  pagerLabel: string;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
}

/** `mailto:` for an address and a subject line; the parts are encoded so no character changes the link. */
function mailto(email: string, subject: string | null): string {
  const address = email.split('@').map(encodeURIComponent).join('@');
  return subject ? `mailto:${address}?subject=${encodeURIComponent(`Re: ${subject}`)}` : `mailto:${address}`;
}

interface CardProps {
  inquiry: Inquiry;
  copy: InquiriesCopy;
  updating: boolean;
  retrying: number | null;
  onToggle: () => void;
  onDecide: (decision: MeetingDecisionInput) => Promise<boolean>;
  onRetry: (mail: InquiryMail) => void;
}

function InquiryCard({ inquiry, copy, updating, retrying, onToggle, onDecide, onRetry }: CardProps) {
  const headingId = `inquiry-${inquiry.id}`;
  const handled = inquiry.handledAt !== null;
  const from = [inquiry.position, inquiry.company].filter(Boolean).join(', ');
  return (
    <article className={`admin-inquiry${handled ? ' is-handled' : ''}`} aria-labelledby={headingId}>
      <header className="admin-inquiry__head">
        <p className={`admin-badge admin-badge--${inquiry.kind}`}>{copy[inquiry.kind]}</p>
        <p className={`admin-state${handled ? ' admin-state--done' : ''}`}>
          {handled ? fill(copy.handled, { date: localDateTime(inquiry.handledAt!) }) : copy.open}
        </p>
      </header>
      <h3 id={headingId} className="admin-inquiry__title">
        {inquiry.subject ?? copy.no_subject}
      </h3>
      <p className="admin-inquiry__from">
        <strong>{inquiry.fullName}</strong>
        {from && <span> · {from}</span>}
      </p>
      {inquiry.meetingStart && (
        <p className="admin-inquiry__slot">
          <span className="admin-inquiry__slot-label">{copy.slot}</span>{' '}
          <time dateTime={inquiry.meetingStart}>
            {fill(copy.slot_value, belgradeSlot(inquiry.meetingStart))}
          </time>{' '}
          <span className={`admin-meeting admin-meeting--${inquiry.meetingStatus}`}>
            {copy[`meeting_${inquiry.meetingStatus ?? 'requested'}`]}
          </span>
        </p>
      )}
      {inquiry.message && <p className="admin-inquiry__message">{inquiry.message}</p>}
      <dl className="admin-inquiry__facts">
        <div>
          <dt>{copy.received}</dt>
          <dd>
            <time dateTime={inquiry.createdAt} title={inquiry.createdAt}>
              {localDateTime(inquiry.createdAt)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{copy.email}</dt>
          <dd>
            <a href={mailto(inquiry.email, null)}>{inquiry.email}</a>
          </dd>
        </div>
        {inquiry.phone && (
          <div>
            <dt>{copy.phone}</dt>
            <dd>
              <a href={`tel:${inquiry.phone.replace(/[^+\d]/g, '')}`}>{inquiry.phone}</a>
            </dd>
          </div>
        )}
        {inquiry.sourcePage && (
          <div>
            <dt>{copy.source}</dt>
            <dd>
              <code>{inquiry.sourcePage}</code>
            </dd>
          </div>
        )}
        <div>
          <dt>{copy.lang}</dt>
          <dd>{copy[`lang_${inquiry.lang}`]}</dd>
        </div>
        {inquiry.callLink && inquiry.meetingStatus === 'confirmed' && (
          <div>
            <dt>{copy.call_link}</dt>
            <dd>
              <a href={inquiry.callLink} rel="noreferrer noopener" target="_blank">
                {inquiry.callLink}
              </a>
            </dd>
          </div>
        )}
        {inquiry.declineNote && inquiry.meetingStatus === 'declined' && (
          <div>
            <dt>{copy.decline_note}</dt>
            <dd className="admin-inquiry__note">{inquiry.declineNote}</dd>
          </div>
        )}
      </dl>
      <section className="admin-inquiry__mail" aria-label={copy.mail}>
        <h4 className="admin-inquiry__mail-title">{copy.mail}</h4>
        <MailStates mail={inquiry.mail} copy={copy} retrying={retrying} onRetry={onRetry} />
      </section>
      {inquiry.kind === 'meeting' && <MeetingHistory history={inquiry.meetingHistory} copy={copy} />}
      {inquiry.kind === 'meeting' && (
        <MeetingDecision inquiry={inquiry} copy={copy} busy={updating} onDecide={onDecide} />
      )}
      <div className="admin-inquiry__actions">
        <a className="admin-button admin-button--small" href={mailto(inquiry.email, inquiry.subject)}>
          {copy.reply}
        </a>
        <button
          type="button"
          className={`admin-button admin-button--small${handled ? '' : ' admin-button--primary'}`}
          aria-disabled={updating}
          onClick={() => !updating && onToggle()}
        >
          {handled ? copy.reopen : copy.mark_handled}
        </button>
      </div>
    </article>
  );
}

/** Contact messages and meeting requests, newest first, a page at a time; each can be marked as handled. */
export function InquiryList({ token, copy, pagerCopy, pagerLabel, notify, onUnauthorized }: Props) {
  const id = useId();
  const load = useCallback(
    (paging: Paging, signal: AbortSignal) => fetchInquiryPage(token, paging, signal),
    [token],
  );
  const { list, setList, reload, pager } = usePagedList(load, onUnauthorized, 25);
  const [updating, setUpdating] = useState<number | null>(null);
  const [retrying, setRetrying] = useState<number | null>(null);

  const replace = (updated: Inquiry) =>
    setList((l) => ({ ...l, rows: l.rows.map((r) => (r.id === updated.id ? updated : r)) }));

  const toggle = async (inquiry: Inquiry) => {
    setUpdating(inquiry.id);
    try {
      const updated = await setInquiryHandled(token, inquiry.id, inquiry.handledAt === null);
      replace(updated);
      notify(updated.handledAt ? copy.marked_handled : copy.reopened);
    } catch (error) {
      if (isAuthError(error)) onUnauthorized();
      else notify(copy.update_failed, 'error');
    } finally {
      setUpdating(null);
    }
  };

  const decide = async (inquiry: Inquiry, decision: MeetingDecisionInput): Promise<boolean> => {
    setUpdating(inquiry.id);
    try {
      replace(await decideMeeting(token, inquiry.id, decision));
      notify(decision.decision === 'confirm' ? copy.confirmed_toast : copy.declined_toast);
      return true;
    } catch (error) {
      if (isAuthError(error)) onUnauthorized();
      else notify(copy.decision_failed, 'error');
      return false;
    } finally {
      setUpdating(null);
    }
  };

  const retry = async (inquiry: Inquiry, mail: InquiryMail) => {
    setRetrying(mail.id);
    try {
      const queued = await retryMail(token, mail.id);
      replace({ ...inquiry, mail: inquiry.mail.map((m) => (m.id === queued.id ? queued : m)) });
      notify(copy.mail_retried);
    } catch (error) {
      if (isAuthError(error)) onUnauthorized();
      else notify(copy.retry_failed, 'error');
    } finally {
      setRetrying(null);
    }
  };

  return (
    <div className="admin-inquiries">
      <h2 id={`${id}-heading`} className="visually-hidden">
        {copy.heading}
      </h2>
      <ListFallback list={list} copy={copy} onRetry={reload} />
      {list.status === 'ready' && list.total > 0 && (
        <>
          <p className="admin-summary">
            {plural({ one: copy.total_one, other: copy.total_other }, list.total)}
          </p>
          <ol className="admin-inquiry-list" aria-labelledby={`${id}-heading`}>
            {list.rows.map((inquiry) => (
              <li key={inquiry.id}>
                <InquiryCard
                  inquiry={inquiry}
                  copy={copy}
                  updating={updating === inquiry.id}
                  retrying={retrying}
                  onToggle={() => toggle(inquiry)}
                  onDecide={(decision) => decide(inquiry, decision)}
                  onRetry={(mail) => retry(inquiry, mail)}
                />
              </li>
            ))}
          </ol>
          <Pager label={pagerLabel} copy={pagerCopy} {...pager} />
        </>
      )}
    </div>
  );
}

/** The panel's inquiries tab. */
export const InquiriesTab = ({ copy, token, notify, onUnauthorized }: TabProps) => (
  <InquiryList
    token={token}
    copy={copy.inquiries}
    pagerCopy={copy.pager}
    pagerLabel={copy.pager.inquiries}
    notify={notify}
    onUnauthorized={onUnauthorized}
  />
);
