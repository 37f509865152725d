/** POST /api/campaigns/{id}/cancel (bearer) → 200 the campaign, `cancelled`; its unsent copies stay unsent. */
import type { Config } from '@netlify/functions';
import { cancelCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-cancel', { POST: cancelCampaignHandler });

export const config: Config = { path: '/api/campaigns/:id/cancel' };
