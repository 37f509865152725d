import { useEffect, useRef, useState, type FormEvent } from 'react';
import { languages, type Lang } from '../../../../i18n/lang.ts';
import { CAMPAIGN_LIMITS, campaignSchema, type CampaignInput } from '../../../../lib/campaign-schema.ts';
import { validate, type FieldErrors } from '../../../../lib/schemas.ts';
import {
  ApiError,
  fetchDeliverability,
  campaignAction,
  countConfirmed,
  deleteCampaign,
  fetchAudience,
  isAbort,
  isAuthError,
  saveCampaign,
  type CampaignDetail,
} from '../api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { fill, percent, plural } from '../format.ts';
import { ArticlePicker } from './ArticlePicker.tsx';
import { CampaignSchedule } from './CampaignSchedule.tsx';
import { forgetDraft, keepDraft } from './draft-store.ts';
import type { CampaignsProps } from './types.ts';
import { MailPreview } from './MailPreview.tsx';
import { TopicsFieldset } from './TopicsFieldset.tsx';

interface Props extends CampaignsProps {
  id: number | null;
  initial: CampaignDetail | null;
  /** Unsaved content an ended session left in this tab; it replaces the stored text until saved. */
  restored?: CampaignInput;
  onSaved: (id: number) => void;
  onSent: () => void;
  onDeleted: () => void;
}

type Field = 'subject' | 'preheader' | 'markdown';
const FIELDS: readonly Field[] = ['subject', 'preheader', 'markdown'];

/** A draft: subject, preview line, Markdown text and article cards, with a live preview and the send. */
export function CampaignEditor(props: Props) {
  const { token, copy, articles, notify, onUnauthorized, initial } = props;
  const [id, setId] = useState(props.id);
  const [content, setContent] = useState<CampaignInput>(
    () =>
      props.restored ?? {
        subject: initial?.subject ?? '',
        preheader: initial?.preheader ?? '',
        markdown: initial?.markdown ?? '',
        articles: initial?.articles ?? [],
        lang: initial?.lang ?? 'en',
        topics: initial?.topics ?? [],
      },
  );
  const topics = content.topics ?? [];
  const lang: Lang = content.lang ?? 'en';
  /** "English" or "German", as the send button and the dialog name the recipients. */
  const language = copy[`lang_${lang}`];
  const [saved, setSaved] = useState(props.id !== null && !props.restored);
  const [scheduledAt, setScheduledAt] = useState(initial?.scheduledAt ?? null);
  /** Whether this editor has changed anything; until it has, a draft kept from an earlier session stays. */
  const touched = useRef(Boolean(props.restored));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'save' | 'test' | 'send' | 'delete' | null>(null);
  /** The last count and the language it counts: a count of the other language is no count for this one. */
  const [counted, setCounted] = useState<{ lang: Lang; confirmed: number } | null>(null);
  const confirmed = counted?.lang === lang ? counted.confirmed : null;
  const [dialog, setDialog] = useState<'send' | 'complaints' | 'delete' | null>(null);
  /** The exact number the send would reach, counted by the server when the send dialog opens. */
  const [audience, setAudience] = useState(0);
  /** The last 30 days' complaint rate, when it is above 0.3 % and the owner is asked to confirm a send. */
  const [complaintRate, setComplaintRate] = useState<number | null>(null);
  const summary = useRef<HTMLDivElement>(null);

  // The recipients are the confirmed subscribers of the language: counted again when it changes.
  useEffect(() => {
    const controller = new AbortController();
    countConfirmed(token, lang, controller.signal).then(
      (confirmed) => setCounted({ lang, confirmed }),
      (error: unknown) => {
        if (!isAbort(error) && isAuthError(error)) onUnauthorized();
      },
    );
    return () => controller.abort();
  }, [token, lang, onUnauthorized]);

  // Unsaved text is mirrored into this tab's storage, so a session that ends (idle) does not lose it.
  useEffect(() => {
    if (!touched.current) return;
    if (saved) forgetDraft();
    else keepDraft({ id, content });
  }, [id, content, saved]);

  const change = (patch: Partial<CampaignInput>) => {
    touched.current = true;
    setContent((c) => ({ ...c, ...patch }));
    setSaved(false);
  };

  const failed = (error: unknown, message: string) => {
    if (isAuthError(error)) onUnauthorized();
    else if (error instanceof ApiError && error.status === 409) {
      notify(copy.state_changed);
      props.onSent();
    } else notify(message, 'error');
  };

  /** Checks the fields, saves what changed; resolves to the draft's id, or null when it could not be saved. */
  const save = async (): Promise<number | null> => {
    const checked = validate(campaignSchema, content);
    if (!checked.ok) {
      setErrors(checked.fields);
      requestAnimationFrame(() => summary.current?.focus());
      return null;
    }
    setErrors({});
    if (saved && id !== null) return id;
    try {
      const savedId = await saveCampaign(token, id, checked.data);
      setId(savedId);
      setSaved(true);
      if (id === null) props.onSaved(savedId);
      return savedId;
    } catch (error) {
      failed(error, copy.save_failed);
      return null;
    }
  };

  const run = async (what: NonNullable<typeof busy>, work: () => Promise<void>) => {
    if (busy) return;
    setBusy(what);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      if ((await save()) !== null) notify(copy.saved);
    });
  };

  const sendTest = () =>
    run('test', async () => {
      const draft = await save();
      if (draft === null) return;
      try {
        const reply = await campaignAction(token, draft, 'test');
        notify(fill(copy.test_sent, { email: String(reply.to) }));
      } catch (error) {
        failed(error, copy.test_failed);
      }
    });

  /** Saves, then asks the server how many the send would reach (topics and pauses count), and asks. */
  const askToSend = () =>
    run('send', async () => {
      const draft = await save();
      if (draft === null) return;
      try {
        const count = await fetchAudience(token, draft);
        setAudience(count);
        if (count > 0) setDialog('send');
        else
          notify(fill(topics.length ? copy.no_recipients_topics : copy.no_recipients, { language }), 'error');
      } catch (error) {
        failed(error, copy.audience_failed);
      }
    });

  const send = (confirmComplaints = false) =>
    run('send', async () => {
      setDialog(null);
      try {
        await campaignAction(token, id!, 'send', confirmComplaints);
        notify(copy.sending_started);
        props.onSent();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'complaints_need_confirmation') {
          // Above 0.3 % complaints the owner confirms once more, knowing the rate.
          setComplaintRate((await fetchDeliverability(token).catch(() => null))?.complaintRate ?? null);
          setDialog('complaints');
        } else if (error instanceof ApiError && error.code === 'complaints_need_owner')
          notify(copy.complaints_owner, 'error');
        else if (error instanceof ApiError && error.code === 'no_recipients')
          notify(fill(topics.length ? copy.no_recipients_topics : copy.no_recipients, { language }), 'error');
        else failed(error, copy.send_failed);
      }
    });

  const remove = () =>
    run('delete', async () => {
      setDialog(null);
      try {
        await deleteCampaign(token, id!);
        forgetDraft();
        notify(copy.deleted);
        props.onDeleted();
      } catch (error) {
        failed(error, copy.delete_failed);
      }
    });

  const errorList = Object.entries(errors);
  const described = (field: string) =>
    [`campaign-${field}-hint`, errors[field] && `campaign-${field}-error`].filter(Boolean).join(' ');
  const count = confirmed ?? 0;

  return (
    <div className="admin-campaign__layout">
      <form className="admin-campaign__form" noValidate onSubmit={onSubmit}>
        {errorList.length > 0 && (
          <div ref={summary} className="admin-error admin-campaign__errors" role="alert" tabIndex={-1}>
            <p>{copy.errors_heading}</p>
            <ul>
              {errorList.map(([field, message]) => (
                <li key={field}>
                  <a href={`#campaign-${field.split('.')[0]}`}>{message}</a>
                </li>
              ))}
            </ul>
          </div>
        )}
        <fieldset className="admin-choice admin-campaign__lang" aria-describedby="campaign-lang-hint">
          <legend className="admin-label">{copy.lang}</legend>
          <p id="campaign-lang-hint" className="admin-hint">
            {copy.lang_hint}
          </p>
          {languages.map((option) => (
            <label key={option} className="admin-choice__option">
              <input
                type="radio"
                name="lang"
                value={option}
                checked={lang === option}
                onChange={() => change({ lang: option })}
              />
              <span>
                <strong>{copy[`lang_${option}`]}</strong>
              </span>
            </label>
          ))}
        </fieldset>
        {FIELDS.map((field) => {
          const Tag = field === 'markdown' ? 'textarea' : 'input';
          return (
            <div key={field} className="admin-field">
              <label htmlFor={`campaign-${field}`} className="admin-label">
                {copy[field]}
              </label>
              <p id={`campaign-${field}-hint`} className="admin-hint">
                {copy[`${field}_hint`]}
              </p>
              {errors[field] && (
                <p id={`campaign-${field}-error`} className="admin-field-error">
                  {errors[field]}
                </p>
              )}
              <Tag
                id={`campaign-${field}`}
                name={field}
                className={`admin-input${field === 'markdown' ? ' admin-textarea admin-campaign__markdown' : ''}`}
                maxLength={CAMPAIGN_LIMITS[field]}
                required={field !== 'preheader'}
                aria-invalid={errors[field] ? true : undefined}
                aria-describedby={described(field)}
                value={content[field]}
                onChange={(event) => change({ [field]: event.target.value })}
                {...(field === 'markdown' ? { rows: 14, spellCheck: true } : { type: 'text' })}
              />
            </div>
          );
        })}
        <TopicsFieldset
          chosen={topics}
          copy={copy}
          error={errors.topics}
          onChange={(chosen) => change({ topics: chosen })}
        />
        <ArticlePicker
          options={articles}
          chosen={content.articles ?? []}
          copy={copy}
          error={errors.articles}
          onChange={(chosen) => change({ articles: chosen })}
        />
        <CampaignSchedule
          {...{ token, copy, notify, onUnauthorized, scheduledAt }}
          ensureSaved={save}
          onChange={setScheduledAt}
        />
        <div className="admin-campaign__actions">
          <button type="submit" className="admin-button" aria-disabled={busy !== null}>
            {busy === 'save' ? copy.saving : copy.save}
          </button>
          <button type="button" className="admin-button" aria-disabled={busy !== null} onClick={sendTest}>
            {copy.send_test}
          </button>
          <button
            type="button"
            className="admin-button admin-button--primary"
            aria-disabled={busy !== null || count === 0}
            onClick={() => count > 0 && askToSend()}
          >
            {topics.length > 0
              ? copy.send_topics
              : confirmed === null
                ? fill(copy.send_other, { count: '…', language })
                : confirmed === 0
                  ? fill(copy.send_none, { language })
                  : plural({ one: copy.send_one, other: copy.send_other }, count, { language })}
          </button>
          {id !== null && (
            <button
              type="button"
              className="admin-button admin-button--danger-quiet"
              aria-disabled={busy !== null}
              onClick={() => setDialog('delete')}
            >
              {copy.delete}
            </button>
          )}
        </div>
      </form>
      <MailPreview token={token} copy={copy} content={content} onUnauthorized={onUnauthorized} />
      <ConfirmDialog
        open={dialog === 'send'}
        title={copy.send_title}
        text={plural(
          topics.length
            ? { one: copy.send_text_topics_one, other: copy.send_text_topics_other }
            : { one: copy.send_text_one, other: copy.send_text_other },
          audience,
          { language },
        )}
        detail={content.subject}
        confirmLabel={plural({ one: copy.send_accept_one, other: copy.send_accept_other }, audience, {
          language,
        })}
        cancelLabel={copy.dialog_cancel}
        onConfirm={() => send()}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'complaints'}
        title={copy.complaints_title}
        text={fill(copy.complaints_text, { rate: percent(complaintRate) })}
        detail={content.subject}
        confirmLabel={copy.complaints_accept}
        cancelLabel={copy.dialog_cancel}
        onConfirm={() => send(true)}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={copy.delete_title}
        text={copy.delete_text}
        detail={content.subject}
        confirmLabel={copy.delete_accept}
        cancelLabel={copy.dialog_cancel}
        onConfirm={remove}
        onCancel={() => setDialog(null)}
      />
    </div>
  );
}
