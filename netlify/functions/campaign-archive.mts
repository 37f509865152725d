/**
 * PUT /api/campaigns/{id}/archive (bearer) {"inArchive": boolean} → 200 the campaign: whether the issue, once
 * sent, is listed in the public archive at /newsletter/ (or /de/newsletter/).
 */
import type { Config } from '@netlify/functions';
import { archiveCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-archive', { PUT: archiveCampaignHandler });

export const config: Config = { path: '/api/campaigns/:id/archive' };
