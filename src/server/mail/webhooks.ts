/**
 * POST /api/mail/events/{provider}: a relay's bounce and complaint webhooks. Read the body (capped), verify it
 * as the provider documents (src/server/mail/providers), refuse a replayed one-time token, then apply each
 * reported event once by its id. Unverified or replayed → 401 and nothing changes; a provider whose secret is
 * not configured → 503 (fail closed); an event for a mail we never sent → 200 and nothing changes.
 */
import { database } from '../config.ts';
import { HttpError, json, readText, type Handler } from '../http.ts';
import { claimNonce, releaseNonce } from '../repositories/webhook-nonces.ts';
import type { MailEventOutcome } from './events.ts';
import {
  currentSnsHttp,
  webhookProvider,
  WebhookRefusedError,
  type VerifiedDelivery,
} from './providers/index.ts';
import { applyMailEvent } from './suppression.ts';

/**
 * SendGrid batches events into posts of up to 768 KB and an SNS message holds 256 KB (escaped once more in
 * its envelope); a MiB takes either with room, and no honest delivery comes near it.
 */
export const MAIL_EVENTS_MAX_BYTES = 1024 * 1024;

/** The function's answer: how many events the delivery reported and what applying each did. */
export type MailEventsReply = { received: number } & Record<MailEventOutcome, number>;

async function verified(name: string, req: Request): Promise<VerifiedDelivery> {
  const provider = webhookProvider(name);
  if (!provider) throw new HttpError(404, 'not_found', 'There is no such mail provider.');
  const body = await readText(req, MAIL_EVENTS_MAX_BYTES);
  try {
    return await provider.verify({ headers: req.headers, body, now: new Date(), env: process.env });
  } catch (error) {
    // Which check failed goes to the function log only; the sender gets one message for every cause.
    if (error instanceof WebhookRefusedError) console.warn(`[mail-events] refused ${name}: ${error.reason}`);
    throw error;
  }
}

/** Visits an SNS SubscribeURL; when SNS cannot be reached, 503 so SNS sends the confirmation again. */
async function confirmSubscription(confirm: NonNullable<VerifiedDelivery['confirm']>): Promise<void> {
  try {
    await currentSnsHttp().confirmSubscription(confirm.url);
    console.info(`[mail-events] SNS subscription to ${confirm.topicArn} confirmed`);
  } catch (error) {
    console.error(
      `[mail-events] SNS subscription to ${confirm.topicArn} not confirmed (${(error as Error).message}); ` +
        `confirm it in the SNS console or by visiting ${confirm.url}`,
    );
    throw new HttpError(503, 'service_unavailable', 'The subscription could not be confirmed. Try again.', {
      headers: { 'retry-after': '60' },
    });
  }
}

export const mailEventsHandler: Handler = async (req, context) => {
  const name = context.params.provider ?? '';
  const delivery = await verified(name, req);
  const db = database();
  if (delivery.nonce && !(await claimNonce(db, name, delivery.nonce.value, delivery.nonce.expiresAt))) {
    console.warn(`[mail-events] refused ${name}: replayed token`);
    throw new WebhookRefusedError('replayed token');
  }
  const reply: MailEventsReply = { received: delivery.events.length, applied: 0, duplicate: 0, unknown: 0 };
  try {
    // One after another: a batch names one address several times (a bounce, then its drop), in order.
    for (const event of delivery.events) reply[await applyMailEvent(db, event)] += 1;
  } catch (error) {
    // Applied events stay applied (each once, by its id); the token goes, so the provider's retry is accepted.
    if (delivery.nonce) await releaseNonce(db, name, delivery.nonce.value).catch(() => undefined);
    throw error;
  }
  if (delivery.confirm) await confirmSubscription(delivery.confirm);
  if (delivery.note) console.info(`[mail-events] ${delivery.note}`);
  return json(200, reply);
};
