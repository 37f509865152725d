/**
 * POST /api/collect → 204: the page beacon of a visitor who allowed cookies, added to daily counters
 * (no address, user-agent or identifier is kept). 400 malformed or out of range, 403 from another site,
 * 413 oversized, 415 another media type.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { collectHandler } from '../../src/server/insight/collect.ts';

export default route('collect', { POST: collectHandler });

export const config: Config = { path: '/api/collect' };
