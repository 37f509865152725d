/**
 * GET /api/suppressions (owner, editor): the suppression list, searchable, newest first; DELETE
 * /api/suppressions/{id} (owner): lifts a bounce suppression. GET /api/deliverability (owner, editor): the
 * last 30 days' bounce and complaint rates against the thresholds. POST /api/mail/inbound: one bounce or complaint
 * report, as raw mail, from the provider's inbound route (Bearer MAIL_INBOUND_SECRET).
 */
import { timingSafeEqual } from 'node:crypto';
import { requireAdmin, ROLES_FOR } from './auth.ts';
import { ConfigError, database } from './config.ts';
import { HttpError, json, mediaType, readText, type Handler } from './http.ts';
import { NotAReport, readReport, REPORT_MAX_BYTES } from './mail/reports.ts';
import { applyMailEvent, deliverability } from './mail/suppression.ts';
import { onlyParams, paging, rowId } from './query.ts';
import { recordActivity } from './repositories/activity.ts';
import {
  liftSuppression,
  listSuppressions,
  SUPPRESSION_REASONS,
  type SuppressionReason,
} from './repositories/suppressions.ts';

export const listSuppressionsHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.suppressions, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['q', 'reason', 'page', 'pageSize', 'purpose']);
  const purpose = params.get('purpose');
  if (purpose !== null && purpose !== 'export')
    throw new HttpError(400, 'invalid_query', '"purpose" is "export" or absent.');
  if (purpose === 'export' && (params.get('page') ?? '1') === '1')
    await recordActivity(db, { actor: admin, action: 'suppressions.export', ip: context.ip });
  const q = params.get('q')?.trim() || undefined;
  if (q !== undefined && q.length > 254)
    throw new HttpError(400, 'invalid_query', '"q" has at most 254 characters.');
  const reason = params.get('reason') ?? undefined;
  if (reason !== undefined && !SUPPRESSION_REASONS.includes(reason as SuppressionReason))
    throw new HttpError(400, 'invalid_query', `"reason" is one of ${SUPPRESSION_REASONS.join(', ')}.`);
  const { rows, total } = await listSuppressions(db, {
    q,
    reason: reason as SuppressionReason | undefined,
    ...paging(params),
  });
  return json(200, rows, { 'x-total-count': String(total) });
};

export const liftSuppressionHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.liftSuppression, context);
  const id = rowId(context.params.id);
  const lifted = await db.transaction(async (tx) => {
    const result = await liftSuppression(tx, id);
    if (result && result !== 'not_liftable')
      await recordActivity(tx, {
        actor: admin,
        action: 'suppression.lift',
        target: `suppression ${id}: ${result.reason}`,
        ip: context.ip,
      });
    return result;
  });
  if (!lifted) throw new HttpError(404, 'not_found', `There is no suppression ${id}.`);
  if (lifted === 'not_liftable')
    throw new HttpError(
      409,
      'not_liftable',
      'Only a bounce can be lifted here; a complaint or an unsubscribe ends only when the person signs up and confirms again.',
    );
  return json(200, lifted);
};

export const deliverabilityHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.suppressions, context);
  onlyParams(new URL(req.url).searchParams, []);
  return json(200, await deliverability(db));
};

/** At least this long, or the inbound endpoint answers 503: it guards what suppresses an address. */
export const INBOUND_SECRET_MIN_LENGTH = 32;

/** Whether the request carries `Authorization: Bearer <MAIL_INBOUND_SECRET>`; compared in constant time. */
function inboundAuthorised(req: Request): boolean {
  const secret = process.env.MAIL_INBOUND_SECRET?.trim() ?? '';
  if (secret.length < INBOUND_SECRET_MIN_LENGTH)
    throw new ConfigError(`MAIL_INBOUND_SECRET must have at least ${INBOUND_SECRET_MIN_LENGTH} characters`);
  const given = /^Bearer ([^\s]+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  const [a, b] = [Buffer.from(given), Buffer.from(secret)];
  return a.length === b.length && timingSafeEqual(a, b);
}

export const inboundReportHandler: Handler = async (req) => {
  if (!inboundAuthorised(req))
    throw new HttpError(401, 'unauthorized', 'Send the inbound secret as "Authorization: Bearer …".', {
      headers: { 'www-authenticate': 'Bearer realm="mail-inbound"' },
    });
  if (mediaType(req) !== 'message/rfc822')
    throw new HttpError(415, 'unsupported_media_type', 'Send one raw report as message/rfc822.');
  const raw = await readText(req, REPORT_MAX_BYTES);
  let events;
  try {
    events = await readReport(raw);
  } catch (error) {
    if (error instanceof NotAReport)
      throw new HttpError(422, 'not_a_report', `Not a bounce or complaint report: ${error.message}.`);
    throw error;
  }
  const db = database();
  const applied = [];
  for (const event of events)
    applied.push({
      kind: event.kind,
      recipient: event.recipient ?? null,
      outcome: await applyMailEvent(db, event),
    });
  return json(200, { events: applied });
};
