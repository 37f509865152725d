/**
 * GET  /api/campaigns (bearer; optional page, pageSize) → 200 [campaign], newest first, X-Total-Count
 * POST /api/campaigns (bearer) {subject, preheader?, markdown, articles?} → 201 {id}: a new draft
 */
import type { Config } from '@netlify/functions';
import { createCampaignHandler, listCampaignsHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaigns', { GET: listCampaignsHandler, POST: createCampaignHandler });

export const config: Config = { path: '/api/campaigns' };
