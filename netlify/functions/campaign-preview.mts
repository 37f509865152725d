/**
 * POST /api/campaign-preview (bearer) {subject, preheader?, markdown, articles?} → 200 {subject, html, text}:
 * the mail as a subscriber will get it, rendered by the same code that sends it.
 */
import type { Config } from '@netlify/functions';
import { previewCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('campaign-preview', { POST: previewCampaignHandler });

export const config: Config = { path: '/api/campaign-preview' };
