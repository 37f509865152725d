/**
 * POST /api/mail/inbound (Bearer MAIL_INBOUND_SECRET, body message/rfc822) → 200 with what each reported
 * bounce or complaint did (`applied`, `duplicate`, `unknown`); 401 wrong secret, 415 not raw mail, 422 not a
 * delivery status notification or ARF report, 413 over 2 MiB.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { inboundReportHandler } from '../../src/server/suppressions.ts';

export default route('mail-inbound', { POST: inboundReportHandler });

export const config: Config = { path: '/api/mail/inbound' };
