/**
 * POST /api/campaigns/{id}/duplicate (bearer) → 201 {id}: a new draft with the subject, preview line, text,
 * article cards and language of any issue, sent or not; not scheduled.
 */
import type { Config } from '@netlify/functions';
import { duplicateCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-duplicate', { POST: duplicateCampaignHandler });

export const config: Config = { path: '/api/campaigns/:id/duplicate' };
