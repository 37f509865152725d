/**
 * POST /api/contact (a contact message or a meeting request), GET /api/meeting-slots and
 * GET /api/meeting.ics. The contact form's JSON and its plain form post (no JavaScript) share one path:
 * the same schema, the same traps, the same rate limit; only the reply differs (201 JSON or a 303).
 */
import { randomUUID } from 'node:crypto';
import { isLang, localePath, type Lang } from '../i18n/lang.ts';
import { meetingIcs, meetingUid } from '../lib/ics.ts';
import { isOfferedSlot, MEETING_MINUTES, MEETING_TIME_ZONE } from '../lib/meeting-slots.ts';
import {
  contactSchema,
  meetingRequestSchema,
  PRIVACY_POLICY_VERSION,
  langOfBody,
  validate,
  type FieldErrors,
} from '../lib/schemas.ts';
import { site } from '../site.config.ts';
import { database } from './config.ts';
import { formsCopy, formWords } from './form-words.ts';
import { HttpError, isFormPost, json, readForm, readJson, seeOther, type Handler } from './http.ts';
import { fill, mailCopy } from './mail/copy.ts';
import { sendSoon } from './mail/kick.ts';
import { notifyAddress } from './mail/settings.ts';
import { onlyParams } from './query.ts';
import { CONTACT_PER_IP, hit } from './rate-limit.ts';
import { meetingSlots, requestMeeting } from './meetings.ts';
import { insertInquiry, SlotTakenError, type NewInquiry } from './repositories/inquiries.ts';
import { countConversion } from './repositories/insight.ts';
import { enqueueMail } from './repositories/outbox.ts';

/** A contact message is at most 5,000 characters; four bytes each plus the other fields stays under this. */
export const CONTACT_BODY_LIMIT = 24 * 1024;
/** People take longer than this to fill in a form; scripts do not. Faster posts get a success and no row. */
export const MIN_FILL_MS = 3000;

/** Where a form post without JavaScript lands when a field needs attention (see the contact page). */
const formErrorsAt = (fields: string[], lang: Lang) =>
  `${localePath(lang, '/contact')}?invalid=${encodeURIComponent(fields.join(','))}#form-errors`;

/** A plain form post, turned into the shape the JSON schemas read (a ticked checkbox sends "on"). */
function fromForm(fields: Record<string, string>): Record<string, unknown> {
  const { privacy, fillMs, ...rest } = fields;
  return {
    ...rest,
    ...(privacy !== undefined && { privacy: privacy === 'on' || privacy === 'true' }),
    ...(fillMs !== undefined && fillMs !== '' && { fillMs: Number(fillMs) }),
  };
}

export const submitInquiry: Handler = async (req, context) => {
  const form = isFormPost(req);
  const body = form
    ? fromForm(await readForm(req, CONTACT_BODY_LIMIT))
    : await readJson(req, CONTACT_BODY_LIMIT);
  const meeting = typeof body === 'object' && body !== null && 'kind' in body && body.kind === 'meeting';
  // Every answer is in the language of the page the form was on; the JSON error keeps its stable code.
  const lang = langOfBody(body);
  const words = formsCopy(lang).errors;
  const parsed = meeting
    ? validate(meetingRequestSchema, body, formWords(lang))
    : validate(contactSchema, body, formWords(lang));

  let fields: FieldErrors | undefined = parsed.ok ? undefined : parsed.fields;
  if (parsed.ok && parsed.data.kind === 'meeting' && !isOfferedSlot(parsed.data.slot)) {
    fields = { slot: words.slot_gone };
  }
  if (fields || !parsed.ok) {
    if (form) return seeOther(formErrorsAt(Object.keys(fields ?? {}), lang));
    throw new HttpError(400, 'validation_failed', words.validation_failed, { fields });
  }

  const db = database();
  const window = await hit(db, CONTACT_PER_IP, context.ip);
  if (window.count > CONTACT_PER_IP.max) {
    if (form) return seeOther(formErrorsAt(['rate_limited'], lang));
    throw new HttpError(429, 'rate_limited', fill(words.rate_limited, { email: site.email }), {
      headers: { 'retry-after': String(window.retryAfter) },
    });
  }

  const data = parsed.data;
  // JSON comes from our own form, which always says how long it was open; a plain post cannot.
  const tooFast = data.fillMs === undefined ? !form : data.fillMs < MIN_FILL_MS;
  const bot = Boolean(data.website) || tooFast;
  const start = data.kind === 'meeting' ? new Date(data.slot) : undefined;
  /** The new meeting's calendar UID, for the thank-you page's calendar file (a bot gets a random one). */
  let uidOfMeeting: string | undefined = start && randomUUID();
  if (!bot) {
    const inquiry: NewInquiry = {
      kind: data.kind === 'meeting' ? 'meeting' : 'contact',
      fullName: data.fullName,
      company: data.company,
      email: data.email,
      ...(data.kind !== 'meeting' && {
        position: data.position,
        phone: data.phone,
        message: data.message,
      }),
      subject: data.subject,
      meetingStart: start,
      ...(data.kind === 'meeting' && data.timeZone && { visitorTimeZone: data.timeZone }),
      privacyVersion: PRIVACY_POLICY_VERSION,
      sourcePage: data.source,
      lang,
    };
    try {
      // The inquiry and its two mails (to the firm, to the visitor) commit together or not at all.
      const mailIds = await db.transaction(async (tx) => {
        await countConversion(tx, inquiry.kind);
        if (inquiry.kind === 'meeting') {
          const requested = await requestMeeting(tx, inquiry);
          uidOfMeeting = requested.meeting.meetingUid;
          return requested.mailIds;
        }
        const { id } = await insertInquiry(tx, inquiry);
        return enqueueMail(tx, [
          { key: `contact:${id}:firm`, template: 'contact-notify', to: notifyAddress(), inquiryId: id },
          { key: `contact:${id}:visitor`, template: 'contact-ack', to: inquiry.email, inquiryId: id },
        ]);
      });
      await sendSoon(context, db, mailIds);
    } catch (error) {
      if (!(error instanceof SlotTakenError)) throw error;
      const slot = words.slot_taken;
      if (form) return seeOther(formErrorsAt(['slot'], lang));
      throw new HttpError(409, 'slot_taken', slot, { fields: { slot } });
    }
  }
  // The thank-you page of the form's language (`/de/thanks` for German).
  const thanks = start
    ? `${localePath(lang, '/thanks')}?${new URLSearchParams({ meeting: start.toISOString(), uid: uidOfMeeting! })}`
    : localePath(lang, '/thanks');
  if (form) return seeOther(thanks);
  return json(201, {
    message: formsCopy(lang).contact.sent,
    next: thanks,
    ...(start && { meetingStart: start.toISOString() }),
  });
};

/** The slots of the next ten working days and whether each was already requested. No personal data. */
export const listMeetingSlots: Handler = async (req) => {
  onlyParams(new URL(req.url).searchParams, []);
  return json(200, {
    timeZone: MEETING_TIME_ZONE,
    minutes: MEETING_MINUTES,
    days: await meetingSlots(database()),
  });
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An .ics file for a requested meeting: `start` on the half-hour grid and `uid`, the meeting's UID from the
 * thank-you page's address, so the file and the invitations by mail are one calendar entry. `lang=de` (the
 * German thank-you page) writes its summary and description in German.
 */
export const meetingCalendar: Handler = async (req) => {
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['start', 'uid', 'lang']);
  const lang = params.get('lang') ?? 'en';
  if (!isLang(lang)) throw new HttpError(400, 'invalid_query', '"lang" is "en" or "de", or absent.');
  const raw = params.get('start') ?? '';
  const uid = params.get('uid') ?? '';
  const start = new Date(raw);
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?Z$/.test(raw) ||
    Number.isNaN(start.getTime()) ||
    start.getTime() % (MEETING_MINUTES * 60_000) !== 0
  ) {
    throw new HttpError(400, 'invalid_query', '"start" must be a UTC time on the hour or half hour.');
  }
  if (!UUID.test(uid)) {
    throw new HttpError(400, 'invalid_query', '"uid" must be the meeting\'s UID from the thank-you page.');
  }
  const words = mailCopy(lang).calendar;
  const values = { company: site.displayName, email: site.email, phone: site.phone };
  const body = meetingIcs({
    start,
    uid: meetingUid(uid, new URL(site.url).hostname),
    status: 'tentative',
    method: 'PUBLISH',
    summary: fill(words.summary_requested, values),
    description: fill(words.description_requested, values),
    organizer: { name: site.displayName, email: site.email },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'attachment; filename="korvel-meeting.ics"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
};
