/**
 * One subscriber's record (issue 36, item 4), opened from a row of the subscriber list in a modal dialog: how and
 * when they came onto the list and consented, their language and topics, every issue sent to them with what
 * became of it, their preference changes, bounces and complaints. From here the person's data is exported as JSON
 * (GDPR Art. 15/20) or erased (Art. 17), after a confirmation.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import {
  eraseSubscriber,
  exportSubscriber,
  fetchSubscriberRecord,
  isAbort,
  isAuthError,
  type SubscriberRecord as RecordData,
} from './api.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import type { RecordCopy, SuppressionsCopy } from './copy.ts';
import { downloadFile } from './download.ts';
import { fill, localDateTime } from './format.ts';
import { useModal } from './modal.ts';
import type { ToastTone } from './Toasts.tsx';

interface Props {
  token: string;
  /** The subscriber to show; null keeps the dialog closed. */
  id: number | null;
  copy: RecordCopy;
  /** The suppression list's words for a reason. */
  reasons: SuppressionsCopy;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
  onClose: () => void;
  /** The subscriber was erased: the list drops the row. */
  onErased: (id: number) => void;
}

type Load =
  { state: 'loading' } | { state: 'failed' } | { state: 'gone' } | { state: 'ready'; record: RecordData };

function When({ at, copy }: { at: string | null; copy: RecordCopy }) {
  if (at === null) return <span className="admin-muted">{copy.not_recorded}</span>;
  return (
    <time dateTime={at} title={at}>
      {localDateTime(at)}
    </time>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="admin-record__section" aria-labelledby={id}>
      <h3 id={id} className="admin-record__heading">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: ReadonlyArray<[string, ReactNode]> }) {
  return (
    <dl className="admin-record__facts">
      {rows.map(([term, value]) => (
        <div key={term} className="admin-record__fact">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A dated list, or a line saying there is nothing. */
function Timeline({
  items,
  empty,
}: {
  items: ReadonlyArray<{ key: string; at: string; text: ReactNode }>;
  empty: string;
}) {
  if (items.length === 0) return <p className="admin-muted">{empty}</p>;
  return (
    <ol className="admin-history">
      {items.map((item) => (
        <li key={item.key} className="admin-history__item">
          <time dateTime={item.at} title={item.at}>
            {localDateTime(item.at)}
          </time>{' '}
          <span>{item.text}</span>
        </li>
      ))}
    </ol>
  );
}

/** Topics by their names in the admin's language; an id this admin does not know shows as it is. */
const topicList = (topics: unknown, copy: RecordCopy) =>
  Array.isArray(topics) && topics.length > 0
    ? topics
        .map(
          (topic) => (copy as Record<string, string | undefined>)[`topic_${String(topic)}`] ?? String(topic),
        )
        .join(', ')
    : copy.topics_none;

const langName = (lang: unknown, copy: RecordCopy) =>
  lang === 'de' ? copy.lang_de : lang === 'en' ? copy.lang_en : String(lang);

function describeChange(change: RecordData['changes'][number], copy: RecordCopy): string {
  const { from, to, until } = change.detail;
  const what =
    change.kind === 'topics'
      ? fill(copy.change_topics, { from: topicList(from, copy), to: topicList(to, copy) })
      : change.kind === 'language'
        ? fill(copy.change_language, { from: langName(from, copy), to: langName(to, copy) })
        : change.kind === 'paused'
          ? fill(copy.change_paused, { until: typeof until === 'string' ? localDateTime(until) : '' })
          : copy.change_resumed;
  return `${what}, ${change.by === 'firm' ? copy.by_firm : copy.by_subscriber}`;
}

function SignUp({ record, copy }: { record: RecordData; copy: RecordCopy }) {
  const { consent } = record;
  const via: ReactNode[] = [
    ...(record.form ? [fill(copy.via_form, { page: record.form.page })] : []),
    ...[...new Set(record.imports.map((i) => i.id))].map((id) => fill(copy.via_import, { id })),
  ];
  const mode = consent.mode === null ? copy.consent_unknown : copy[`consent_${consent.mode}`];
  return (
    <Section title={copy.section_signup}>
      <Facts
        rows={[
          [copy.on_list_since, <When at={record.createdAt} copy={copy} />],
          [copy.signed_up_via, via.length ? via.join('; ') : copy.via_earlier],
          [copy.consent_mode, mode],
          [copy.consent_version, consent.version ?? <span className="admin-muted">{copy.not_recorded}</span>],
          [copy.consent_at, <When at={consent.at} copy={copy} />],
          ...(consent.source ? [[copy.consent_source, consent.source] as [string, ReactNode]] : []),
          [copy.confirmation_sent, <When at={record.confirmation.sentAt} copy={copy} />],
          [copy.confirmed_at, <When at={record.confirmation.confirmedAt} copy={copy} />],
        ]}
      />
    </Section>
  );
}

function RecordBody({
  record,
  copy,
  reasons,
}: {
  record: RecordData;
  copy: RecordCopy;
  reasons: SuppressionsCopy;
}) {
  return (
    <>
      {record.suppression && (
        <p className="admin-record__suppressed">
          {fill(copy.suppressed, {
            date: localDateTime(record.suppression.since),
            reason: reasons[`reason_${record.suppression.reason}`],
          })}
        </p>
      )}
      <SignUp record={record} copy={copy} />
      <Section title={copy.section_preferences}>
        <Facts
          rows={[
            [copy.language, langName(record.lang, copy)],
            [copy.topics, topicList(record.topics, copy)],
            [
              copy.paused_until,
              record.pausedUntil ? <When at={record.pausedUntil} copy={copy} /> : copy.not_paused,
            ],
          ]}
        />
      </Section>
      {record.imports.length > 0 && (
        <Section title={copy.section_imports}>
          <Timeline
            empty=""
            items={record.imports.map((i) => ({
              key: `${i.id}-${i.line}`,
              at: i.at,
              text: fill(copy.import_entry, {
                id: i.id,
                source: i.source,
                line: i.line,
                outcome: copy[`import_${i.outcome ?? 'waiting'}`],
              }),
            }))}
          />
        </Section>
      )}
      <Section title={copy.section_issues}>
        <Timeline
          empty={copy.issues_none}
          items={record.issues.map((issue, n) => ({
            key: `${issue.campaignId}-${n}`,
            at: issue.sentAt ?? issue.queuedAt,
            text: (
              <>
                <strong>{issue.subject ?? copy.issue_deleted}</strong>: {copy[`outcome_${issue.outcome}`]}
              </>
            ),
          }))}
        />
      </Section>
      <Section title={copy.section_mail}>
        <Timeline
          empty={copy.mail_none}
          items={record.mail.map((mail, n) => ({
            key: `${mail.template}-${n}`,
            at: mail.sentAt ?? mail.queuedAt,
            text: `${mail.template === 'newsletter-welcome' ? copy.template_welcome : copy.template_confirm}: ${copy[`outcome_${mail.outcome}`]}`,
          }))}
        />
      </Section>
      <Section title={copy.section_changes}>
        <Timeline
          empty={copy.changes_none}
          items={record.changes.map((change, n) => ({
            key: `${change.at}-${n}`,
            at: change.at,
            text: describeChange(change, copy),
          }))}
        />
      </Section>
      <Section title={copy.section_bounces}>
        <Timeline
          empty={copy.bounces_none}
          items={record.bounces.map((bounce, n) => ({
            key: `${bounce.at}-${n}`,
            at: bounce.at,
            text: [
              copy[`kind_${bounce.kind}`],
              reasons[`source_${bounce.source}`],
              bounce.status,
              bounce.diagnostic,
            ]
              .filter(Boolean)
              .join(' · '),
          }))}
        />
      </Section>
    </>
  );
}

export function SubscriberRecord({
  token,
  id,
  copy,
  reasons,
  notify,
  onUnauthorized,
  onClose,
  onErased,
}: Props) {
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  const dialog = useModal(id !== null, close);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState<'export' | 'erase' | null>(null);

  useEffect(() => {
    if (id === null) return;
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    fetchSubscriberRecord(token, id, controller.signal).then(
      (record) => setLoad({ state: 'ready', record }),
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setLoad({ state: (error as { status?: number }).status === 404 ? 'gone' : 'failed' });
      },
    );
    return () => controller.abort();
  }, [token, id, attempt, onUnauthorized]);

  const fail = (error: unknown, message: string) => {
    if (isAuthError(error)) onUnauthorized();
    else notify(message, 'error');
  };

  const exportJson = async () => {
    if (id === null || working) return;
    setWorking('export');
    try {
      const { file, name } = await exportSubscriber(token, id);
      downloadFile(file, name);
      notify(copy.exported);
    } catch (error) {
      fail(error, copy.export_failed);
    } finally {
      setWorking(null);
    }
  };

  const erase = async () => {
    setConfirming(false);
    if (id === null || working) return;
    setWorking('erase');
    try {
      await eraseSubscriber(token, id);
      notify(copy.erased);
      onErased(id);
    } catch (error) {
      fail(error, copy.erase_failed);
    } finally {
      setWorking(null);
    }
  };

  const ready = load.state === 'ready' ? load.record : null;
  return (
    <dialog
      ref={dialog}
      className="admin-dialog admin-record"
      aria-labelledby={titleId}
      aria-busy={load.state === 'loading'}
      onCancel={(event) => {
        event.preventDefault();
        if (!confirming) onClose();
      }}
    >
      <div className="admin-dialog__body">
        <header className="admin-record__head">
          <h2 id={titleId} className="admin-dialog__title">
            {copy.title}
            {ready && <span className="admin-record__address">{ready.email}</span>}
          </h2>
          {ready?.name && <p className="admin-record__name">{ready.name}</p>}
        </header>
        {load.state === 'loading' ? (
          <p className="admin-status" role="status">
            {copy.loading}
          </p>
        ) : load.state === 'failed' ? (
          <div className="admin-empty" role="status">
            <p>{copy.load_failed}</p>
            <button type="button" className="admin-button" onClick={() => setAttempt((n) => n + 1)}>
              {copy.retry}
            </button>
          </div>
        ) : load.state === 'gone' ? (
          <p className="admin-empty" role="status">
            {copy.gone}
          </p>
        ) : (
          <RecordBody record={load.record} copy={copy} reasons={reasons} />
        )}
        <div className="admin-dialog__actions admin-record__actions">
          {ready && (
            <>
              <p id={`${titleId}-export`} className="admin-record__hint">
                {copy.export_hint}
              </p>
              <button
                type="button"
                className="admin-button"
                aria-describedby={`${titleId}-export`}
                aria-disabled={working !== null}
                onClick={exportJson}
              >
                {copy.export}
              </button>
              <button
                type="button"
                className="admin-button admin-button--danger-quiet"
                aria-disabled={working !== null}
                onClick={() => working === null && setConfirming(true)}
              >
                {copy.erase}
              </button>
            </>
          )}
          <button ref={close} type="button" className="admin-button admin-button--primary" onClick={onClose}>
            {copy.close}
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title={copy.erase_title}
        text={copy.erase_text}
        detail={ready?.email ?? ''}
        confirmLabel={copy.erase_accept}
        cancelLabel={copy.erase_cancel}
        onConfirm={erase}
        onCancel={() => setConfirming(false)}
      />
    </dialog>
  );
}
