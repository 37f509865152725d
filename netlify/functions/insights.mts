/**
 * GET /api/insights?from=YYYY-MM-DD&to=YYYY-MM-DD (bearer) → 200 the admin Overview's figures: page views,
 * entries, referrers and campaigns, conversions, Core Web Vitals p75, searches, subscriber growth and issues.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { insightsHandler } from '../../src/server/insight/handlers.ts';

export default route('insights', { GET: insightsHandler });

export const config: Config = { path: '/api/insights' };
