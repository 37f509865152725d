/**
 * GET /api/health → 200 {"ok":true}
 * Proves that functions answer beside the pages, in dev, in preview and in production.
 */
import type { Config } from '@netlify/functions';

const headers = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export default async (req: Request): Promise<Response> => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return Response.json(
      { error: { code: 'method_not_allowed', message: 'Use GET for this endpoint.' } },
      { status: 405, headers: { ...headers, allow: 'GET, HEAD' } },
    );
  }
  return Response.json({ ok: true }, { headers });
};

export const config: Config = { path: '/api/health' };
