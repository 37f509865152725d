/**
 * GET    /api/campaigns/{id} (bearer) → 200 the campaign with status, counts {queued, sent, failed} and failures
 * PATCH  /api/campaigns/{id} (bearer) {subject?, preheader?, markdown?, articles?} → 200 (drafts only, else 409)
 * DELETE /api/campaigns/{id} (bearer) → 204 (drafts only, else 409)
 */
import type { Config } from '@netlify/functions';
import {
  deleteCampaignHandler,
  getCampaignHandler,
  updateCampaignHandler,
} from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign', {
  GET: getCampaignHandler,
  PATCH: updateCampaignHandler,
  DELETE: deleteCampaignHandler,
});

export const config: Config = { path: '/api/campaigns/:id' };
