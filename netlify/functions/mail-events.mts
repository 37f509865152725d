/**
 * POST /api/mail/events/{ses|postmark|mailgun|sendgrid}: a relay's bounce and complaint webhook, verified as
 * the provider documents → 200 {received, applied, duplicate, unknown}. Unverified or replayed 401, provider
 * not configured 503, unknown provider 404, bad JSON 400, over 1 MiB 413.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { mailEventsHandler } from '../../src/server/mail/webhooks.ts';

export default route('mail-events', { POST: mailEventsHandler });

export const config: Config = { path: '/api/mail/events/:provider' };
