/** POST /api/mail/{id}/retry (bearer) → 200 with the mail, pending again; 404 none, 409 it had not failed. */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { retryMailHandler } from '../../src/server/inquiries.ts';

export default route('mail-retry', { POST: retryMailHandler });

export const config: Config = { path: '/api/mail/:id/retry' };
