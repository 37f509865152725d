import { useEffect, useState } from 'react';
import { campaignAction, fetchCampaign, isAbort, isAuthError, type CampaignDetail } from '../api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { belgradeMoment, fill, localDateTime, percent, plural } from '../format.ts';
import { CampaignReuse } from './CampaignReuse.tsx';
import type { CampaignsProps } from './types.ts';
import { MailPreview } from './MailPreview.tsx';

interface Props extends CampaignsProps {
  campaign: CampaignDetail;
  onChange: (campaign: CampaignDetail) => void;
  onRefresh: () => void;
  /** Opens another issue in place of this one (a duplicate). */
  onOpen: (id: number) => void;
}

/** A scheduled start later than this (two of the worker's runs) is called late. */
const LATE_SECONDS = 120;

/** "3 h 12 min": a delay in hours and minutes. */
const delayWords = (seconds: number) => {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [hours && `${hours} h`, `${minutes} min`].filter(Boolean).join(' ');
};

/** How often a sending issue's counts are fetched again. */
const POLL_MS = 2_000;

/** A sent (or sending) issue: how many copies went, wait or failed, the failures, and "stop sending". */
export function CampaignDelivery({ token, copy, campaign, onChange, onOpen, notify, onUnauthorized }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const sending = campaign.status === 'sending';

  useEffect(() => {
    if (!sending) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      fetchCampaign(token, campaign.id, controller.signal).then(onChange, (error: unknown) => {
        if (!isAbort(error) && isAuthError(error)) onUnauthorized();
      });
    }, POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [token, campaign.id, sending, onChange, onUnauthorized]);

  const stop = async () => {
    setAsking(false);
    setBusy(true);
    try {
      onChange((await campaignAction(token, campaign.id, 'cancel')) as unknown as CampaignDetail);
      notify(copy.cancelled_toast);
    } catch (error) {
      if (isAuthError(error)) onUnauthorized();
      else notify(copy.cancel_failed, 'error');
    } finally {
      setBusy(false);
    }
  };

  const { counts, skipped, delivery } = campaign;
  const recipients = campaign.recipients ?? 0;
  const settled = counts.sent + counts.failed + skipped;
  const figures: Array<[string, number, string]> = [
    [copy.recipients, recipients, 'all'],
    [copy.count_sent, counts.sent, 'sent'],
    [copy.count_queued, counts.queued, 'queued'],
    [copy.count_failed, counts.failed, 'failed'],
    [copy.count_skipped, skipped, 'skipped'],
  ];
  // What became of the copies sent: each with its share (bounces of those sent, the rest of those accepted).
  const rated = (count: number, rate: number | null) => fill(copy.count_rate, { count, rate: percent(rate) });
  const outcomes: Array<[string, string, string]> = [
    [copy.count_accepted, String(delivery.accepted), 'accepted'],
    [copy.count_hard, rated(delivery.hardBounces, delivery.rates.hardBounces), 'hard'],
    [copy.count_soft, rated(delivery.softBounces, delivery.rates.softBounces), 'soft'],
    [copy.count_complaints, rated(delivery.complaints, delivery.rates.complaints), 'complaints'],
    [copy.count_unsubscribes, rated(delivery.unsubscribes, delivery.rates.unsubscribes), 'unsubscribes'],
  ];

  return (
    <div className="admin-campaign__layout">
      <div className="admin-campaign__delivery">
        <p className="admin-campaign__state" role="status">
          <span className={`admin-campaign-status admin-campaign-status--${campaign.status}`}>
            {copy[`status_${campaign.status}`]}
          </span>{' '}
          {campaign.sendStartedAt && fill(copy.started, { date: localDateTime(campaign.sendStartedAt) })}
          {campaign.finishedAt && ` · ${fill(copy.finished, { date: localDateTime(campaign.finishedAt) })}`}
        </p>
        {campaign.scheduledAt && campaign.startDelaySeconds !== null && (
          <p className="admin-hint">
            {fill(copy.started_by_schedule, { belgrade: belgradeMoment(campaign.scheduledAt) })}
            {campaign.startDelaySeconds > LATE_SECONDS &&
              `. ${fill(copy.started_late, { delay: delayWords(campaign.startDelaySeconds) })}`}
          </p>
        )}
        <CampaignReuse {...{ token, copy, notify, onUnauthorized, campaign, onChange, onOpen }} />
        <h3 className="admin-campaign__subheading">{copy.delivery}</h3>
        <label className="admin-label" htmlFor="campaign-progress">
          {copy.progress_label}
        </label>
        <progress
          id="campaign-progress"
          className="admin-progress"
          max={Math.max(recipients, 1)}
          value={settled}
        >
          {settled} / {recipients}
        </progress>
        <dl className="admin-campaign__counts">
          {[...figures, ...outcomes].map(([label, value, kind]) => (
            <div key={kind} className={`admin-campaign__count admin-campaign__count--${kind}`}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {sending && (
          <>
            <p className="admin-hint">{copy.rate_note}</p>
            <button
              type="button"
              className="admin-button admin-button--danger-quiet"
              aria-disabled={busy}
              onClick={() => !busy && setAsking(true)}
            >
              {copy.cancel_send}
            </button>
          </>
        )}
        <h3 className="admin-campaign__subheading">{copy.failures}</h3>
        {campaign.failures.length === 0 ? (
          <p className="admin-muted">{copy.failures_none}</p>
        ) : (
          <ul className="admin-mail">
            {campaign.failures.map((failure) => (
              <li key={failure.id} className="admin-mail__item admin-mail__item--failed">
                <span className="admin-mail__what">{failure.recipient ?? copy.purged}</span>
                <span className="admin-mail__state">
                  {plural({ one: copy.attempts_one, other: copy.attempts_other }, failure.attempts)}
                </span>
                {failure.error && <span className="admin-mail__error">{failure.error}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <MailPreview
        token={token}
        copy={copy}
        content={{
          subject: campaign.subject,
          preheader: campaign.preheader,
          markdown: campaign.markdown,
          articles: campaign.articles,
        }}
        onUnauthorized={onUnauthorized}
      />
      <ConfirmDialog
        open={asking}
        title={copy.cancel_title}
        text={copy.cancel_text}
        detail={campaign.subject}
        confirmLabel={copy.cancel_accept}
        cancelLabel={copy.dialog_cancel}
        onConfirm={stop}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}
