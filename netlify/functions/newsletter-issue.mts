/**
 * GET /newsletter/issue/{id}?sig=… → the issue as a web page ("view in browser"): no sign-in, no personal data;
 * the signature is per campaign. A wrong signature or a deleted issue → 404 page.
 */
import type { Config } from '@netlify/functions';
import { viewCampaignHandler } from '../../src/server/campaigns.tsx';
import { route } from '../../src/server/http.ts';

export default route('newsletter-issue', { GET: viewCampaignHandler });

export const config: Config = { path: '/newsletter/issue/:id' };
