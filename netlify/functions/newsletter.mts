/**
 * GET  /api/newsletter (bearer; optional q, sort, page, pageSize) → 200 [{id, email, created_temp}], X-Total-Count
 * POST /api/newsletter {email, consent, source} → 202, the same reply for new and known addresses
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { listSubscribersHandler, signUp } from '../../src/server/newsletter.ts';

export default route('newsletter', { GET: listSubscribersHandler, POST: signUp });

export const config: Config = { path: '/api/newsletter' };
