/**
 * GET /api/newsletter, POST /api/newsletter, and one subscriber's record: GET /api/newsletter/{id}, its export
 * GET /api/newsletter/{id}/export (GDPR Art. 15/20) and its erasure DELETE /api/newsletter/{id} (Art. 17).
 */
import { NEWSLETTER_TOPICS } from '../content/constants.ts';
import { isLang, type Lang } from '../i18n/lang.ts';
import { langOfBody, newsletterSignupSchema, NEWSLETTER_CONSENT_VERSION, validate } from '../lib/schemas.ts';
import { requireAdmin, ROLES_FOR } from './auth.ts';
import { recordActivity } from './repositories/activity.ts';
import { database } from './config.ts';
import type { Db } from './db/index.ts';
import { site } from '../site.config.ts';
import { formsCopy, formWords } from './form-words.ts';
import {
  HttpError,
  isFormPost,
  json,
  noContent,
  readForm,
  readJson,
  seeOther,
  type Handler,
} from './http.ts';
import { mailCopy } from './mail/copy.ts';
import { sendSoon } from './mail/kick.ts';
import { onlyParams, paging, rowId } from './query.ts';
import { hit, SIGNUP_PER_IP } from './rate-limit.ts';
import { countConversion } from './repositories/insight.ts';
import { subscriberRecord, type SubscriberRecord } from './repositories/subscriber-record.ts';
import { enqueueMail } from './repositories/outbox.ts';
import {
  eraseSubscriber,
  listSubscribers,
  recordSignUp,
  SUBSCRIBER_SORTS,
  SUBSCRIBER_STATUSES,
  type SignUp,
  type SubscriberSort,
  type SubscriberStatus,
} from './repositories/subscribers.ts';

export const SIGNUP_BODY_LIMIT = 2 * 1024;

/**
 * The reply to every accepted sign-up, whether the address is new, waiting for confirmation or confirmed, so
 * the form cannot be used to learn who is subscribed (the same words as the form's no-JavaScript note), in the
 * language of the page the form was on.
 */
export const signUpAccepted = (lang: Lang) => ({ message: mailCopy(lang).signup.accepted });

/** The English reply, as it always was. */
export const SIGNUP_ACCEPTED = signUpAccepted('en');

export const listSubscribersHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['q', 'sort', 'status', 'lang', 'page', 'pageSize', 'purpose']);
  const purpose = params.get('purpose');
  if (purpose !== null && purpose !== 'export')
    throw new HttpError(400, 'invalid_query', '"purpose" is "export" or absent.');
  const q = params.get('q') ?? undefined;
  if (q !== undefined && q.length > 254)
    throw new HttpError(400, 'invalid_query', '"q" has at most 254 characters.');
  const sort = params.get('sort') ?? undefined;
  if (sort !== undefined && !SUBSCRIBER_SORTS.includes(sort as SubscriberSort)) {
    throw new HttpError(400, 'invalid_query', `"sort" is one of ${SUBSCRIBER_SORTS.join(', ')}.`);
  }
  const status = params.get('status') ?? undefined;
  if (
    status !== undefined &&
    status !== 'unsubscribed' &&
    !SUBSCRIBER_STATUSES.includes(status as SubscriberStatus)
  ) {
    throw new HttpError(
      400,
      'invalid_query',
      `"status" is one of ${[...SUBSCRIBER_STATUSES, 'unsubscribed'].join(', ')}.`,
    );
  }
  const lang = params.get('lang') ?? undefined;
  if (lang !== undefined && !isLang(lang))
    throw new HttpError(
      400,
      'invalid_query',
      '"lang" is "en" or "de" (the language of the page they signed up on).',
    );
  const pages = paging(params);
  // The admin builds the CSV export from these pages; its first page says so, for the activity log, once
  // every check has passed, so a refused request records nothing.
  if (purpose === 'export' && (pages.page ?? 1) === 1) {
    await recordActivity(db, { actor: admin, action: 'subscribers.export', ip: context.ip });
  }
  // An unsubscribe deletes the row (the privacy policy promises it), so no row is ever `unsubscribed`: the
  // filter is accepted, as the HTTP contract names it, and always finds nobody (after the same checks).
  if (status === 'unsubscribed') return json(200, [], { 'x-total-count': '0' });
  const { rows, total } = await listSubscribers(db, {
    q: q || undefined,
    sort: sort as SubscriberSort | undefined,
    status: status as SubscriberStatus | undefined,
    lang,
    ...pages,
  });
  return json(200, rows, { 'x-total-count': String(total) });
};

/**
 * Where a plain form post (no JavaScript) lands: back on the page it came from, at the confirmation or the
 * error note of the sign-up form (both shown by CSS `:target`). Only a validated path is ever used.
 */
function backTo(source: unknown, outcome: 'confirmed' | 'error'): Response {
  const path = validate(newsletterSignupSchema.shape.source, source);
  return seeOther(`${path.ok ? path.data : '/'}#newsletter-${outcome}`);
}

/** A topic's checkbox in the plain form: `topic-<id>`, one field each (a form field may come only once). */
const TOPIC_FIELD = /^topic-(.+)$/;

/** The plain form's fields as the JSON body: the consent box as a boolean, the ticked topics as a list. */
function formBody(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const topics: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const topic = TOPIC_FIELD.exec(name)?.[1];
    if (topic !== undefined) topics.push(topic);
    else body[name] = value;
  }
  if (fields.consent !== undefined) body.consent = fields.consent === 'on' || fields.consent === 'true';
  return topics.length ? { ...body, topics } : body;
}

export const signUp: Handler = async (req, context) => {
  const form = isFormPost(req);
  const fields = form ? await readForm(req, SIGNUP_BODY_LIMIT) : undefined;
  const body = fields ? formBody(fields) : await readJson(req, SIGNUP_BODY_LIMIT);
  // Every answer is in the language of the page the form was on; the JSON error keeps its stable code.
  const lang = langOfBody(body);
  const parsed = validate(newsletterSignupSchema, body, formWords(lang));
  if (!parsed.ok && fields) return backTo(fields.source, 'error');
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', formsCopy(lang).errors.validation_failed, {
      fields: parsed.fields,
    });
  }
  const db = database();
  const window = await hit(db, SIGNUP_PER_IP, context.ip);
  if (window.count > SIGNUP_PER_IP.max) {
    if (form) return backTo(parsed.data.source, 'error');
    throw new HttpError(429, 'rate_limited', formsCopy(lang).errors.rate_limited_signup, {
      headers: { 'retry-after': String(window.retryAfter) },
    });
  }
  const { email, source, website } = parsed.data;
  // Stored in NEWSLETTER_TOPICS order, once each; none ticked reads as the form's default, every topic.
  const ticked = parsed.data.topics ?? [];
  const topics = NEWSLETTER_TOPICS.filter((topic) => ticked.length === 0 || ticked.includes(topic));
  // A filled honeypot is a bot: it gets the same reply and nothing is stored.
  if (!website) {
    const signUp: SignUp = {
      email,
      consentVersion: NEWSLETTER_CONSENT_VERSION,
      sourcePage: source,
      lang,
      topics,
    };
    // The pending row and its confirmation mail commit together; a known address may be due no mail.
    const mailIds = await db.transaction(async (tx) => {
      const due = await recordSignUp(tx, signUp);
      if (!due) return [];
      await countConversion(tx, 'signup');
      return enqueueMail(tx, [
        {
          key: `newsletter-confirm:${due.subscriberId}:${due.confirmationSentAt.getTime()}`,
          template: 'newsletter-confirm',
          to: email,
          subscriberId: due.subscriberId,
        },
      ]);
    });
    await sendSoon(context, db, mailIds);
  }
  if (form) return backTo(source, 'confirmed');
  return json(202, signUpAccepted(lang));
};

/** The record of the subscriber the path names; 404 when there is none. */
async function recordOf(db: Db, id: number): Promise<SubscriberRecord> {
  const record = await subscriberRecord(db, id);
  if (!record) throw new HttpError(404, 'not_found', `There is no subscriber with id ${id}.`);
  return record;
}

export const subscriberRecordHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  onlyParams(new URL(req.url).searchParams, []);
  return json(200, await recordOf(db, rowId(context.params.id)));
};

/** Names the export: what it is and when, never the address (file names end up in logs and mail subjects). */
const exportFileName = (id: number, at: Date) =>
  `korvel-subscriber-${id}-${at.toISOString().slice(0, 10)}.json`;

export const exportSubscriberHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  onlyParams(new URL(req.url).searchParams, []);
  const id = rowId(context.params.id);
  const record = await recordOf(db, id);
  await recordActivity(db, {
    actor: admin,
    action: 'subscriber.export',
    target: `subscriber ${id}`,
    ip: context.ip,
  });
  const exportedAt = new Date();
  const body = { controller: site.legalName, exportedAt: exportedAt.toISOString(), subscriber: record };
  return json(200, body, {
    'content-disposition': `attachment; filename="${exportFileName(id, exportedAt)}"`,
  });
};

export const eraseSubscriberHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  const id = rowId(context.params.id);
  const erased = await db.transaction(async (tx) => {
    if (!(await eraseSubscriber(tx, id))) return false;
    await recordActivity(tx, {
      actor: admin,
      action: 'subscriber.erase',
      target: `subscriber ${id}`,
      ip: context.ip,
    });
    return true;
  });
  if (!erased) throw new HttpError(404, 'not_found', `There is no subscriber with id ${id}.`);
  return noContent();
};
