/**
 * GET /api/inquiries (contact messages and meeting requests, newest first, with their mail),
 * PATCH /api/inquiries/{id}, POST /api/inquiries/{id}/meeting and POST /api/mail/{id}/retry.
 */
import { inquiryUpdateSchema, meetingDecisionSchema, validate } from '../lib/schemas.ts';
import { requireAdmin, ROLES_FOR } from './auth.ts';
import { recordActivity } from './repositories/activity.ts';
import { database } from './config.ts';
import { HttpError, json, readJson, readText, type Handler } from './http.ts';
import { sendSoon } from './mail/kick.ts';
import { onlyParams, paging, rowId } from './query.ts';
import { decideMeetingRequest } from './meetings.ts';
import { inquiryForAdmin, listInquiries, setInquiryHandled } from './repositories/inquiries.ts';
import { retryFailedMail } from './repositories/outbox.ts';
import { withoutAddresses } from './redact.ts';

export const listInquiriesHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.inquiries, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['page', 'pageSize']);
  const { rows, total } = await listInquiries(db, paging(params));
  return json(200, rows, { 'x-total-count': String(total) });
};

// --- PATCH /api/inquiries/{id} (admin): mark as handled or open again -------------------------------------

/** `{"handled": false}` is 19 bytes; the cap leaves room for whitespace and nothing else. */
export const INQUIRY_UPDATE_BODY_LIMIT = 1024;

export const updateInquiryHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.inquiries, context);
  const id = rowId(context.params.id);
  const parsed = validate(inquiryUpdateSchema, await readJson(req, INQUIRY_UPDATE_BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Send {"handled": true} or {"handled": false}.', {
      fields: parsed.fields,
    });
  }
  const inquiry = await setInquiryHandled(db, id, parsed.data.handled);
  if (!inquiry) throw new HttpError(404, 'not_found', `There is no inquiry with id ${id}.`);
  return json(200, inquiry);
};

// --- POST /api/inquiries/{id}/meeting (admin): confirm or decline a meeting request ---------------------

export const MEETING_DECISION_BODY_LIMIT = 4 * 1024;

/**
 * Confirms (with the video-call link) or declines (with a note) a meeting request. The decision and the mail
 * to both sides commit together; each carries the calendar update (same UID, next SEQUENCE).
 */
export const decideMeetingHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.inquiries, context);
  const id = rowId(context.params.id);
  const parsed = validate(meetingDecisionSchema, await readJson(req, MEETING_DECISION_BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Check the decision and send it again.', {
      fields: parsed.fields,
    });
  }
  const decision = parsed.data;
  const result = await db.transaction((tx) =>
    decideMeetingRequest(
      tx,
      id,
      decision.decision === 'confirm'
        ? { decision: 'confirm', callLink: decision.callLink }
        : { decision: 'decline', note: decision.note },
    ),
  );
  if (!result.meeting) throw new HttpError(404, 'not_found', `There is no inquiry with id ${id}.`);
  if (result.meeting === 'conflict') {
    throw new HttpError(
      409,
      'meeting_state',
      decision.decision === 'confirm'
        ? 'Only a requested meeting can be confirmed.'
        : 'This is not a meeting that can still be declined.',
    );
  }
  await recordActivity(db, {
    actor: admin,
    action: decision.decision === 'confirm' ? 'meeting.confirm' : 'meeting.decline',
    target: `inquiry ${id}`,
    ip: context.ip,
  });
  await sendSoon(context, db, result.mailIds);
  return json(200, await inquiryForAdmin(db, id));
};

// --- POST /api/mail/{id}/retry (admin): send a failed mail again ------------------------------------------

/**
 * Only an inquiry's mail can be sent again from here (the inquiries screen shows no other), and its error
 * reaches the screen without the addresses an SMTP reply repeats: sales reads inquiries, not the outbox.
 */
export const retryMailHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.inquiries, context);
  const id = rowId(context.params.id);
  await readText(req, 1024);
  const result = await retryFailedMail(db, id);
  if (!result) throw new HttpError(404, 'not_found', `There is no mail with id ${id}.`);
  if (!result.retried) {
    throw new HttpError(
      409,
      'not_failed',
      'Only a failed mail that still has its recipient can be sent again.',
    );
  }
  await sendSoon(context, db, [id]);
  const { row } = result;
  return json(200, {
    id: row.id,
    template: row.template,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError && withoutAddresses(row.lastError),
    sentAt: row.sentAt?.toISOString() ?? null,
  });
};
