/**
 * POST /api/campaigns/{id}/send (bearer) → 202 {id, status: "sending", recipients}: one copy per confirmed
 * subscriber of this moment goes into the outbox. Again → 409, and nothing more is queued; no confirmed
 * subscriber → 409 no_recipients.
 */
import type { Config } from '@netlify/functions';
import { sendCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-send', { POST: sendCampaignHandler });

export const config: Config = { path: '/api/campaigns/:id/send' };
