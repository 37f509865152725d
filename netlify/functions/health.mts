/**
 * GET /api/health → 200 {"ok":true}
 * Proves that functions answer beside the pages, in dev, in preview and in production. It does not touch the
 * database, so it is also the baseline the API benchmark compares against.
 */
import type { Config } from '@netlify/functions';
import { json, route } from '../../src/server/http.ts';

export default route('health', { GET: async () => json(200, { ok: true }) });

export const config: Config = { path: '/api/health' };
