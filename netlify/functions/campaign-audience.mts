/**
 * GET /api/campaigns/{id}/audience (bearer; owner, editor) → 200 {count}: how many subscribers a send would
 * queue now (confirmed, of the language, following one of its topics, not paused). Unknown id → 404.
 */
import type { Config } from '@netlify/functions';
import { campaignAudienceHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-audience', { GET: campaignAudienceHandler });

export const config: Config = { path: '/api/campaigns/:id/audience' };
