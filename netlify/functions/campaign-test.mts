/** POST /api/campaigns/{id}/test (bearer) → 202 {to}: one copy, marked as a test, to the signed-in admin. */
import type { Config } from '@netlify/functions';
import { testCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-test', { POST: testCampaignHandler });

export const config: Config = { path: '/api/campaigns/:id/test' };
