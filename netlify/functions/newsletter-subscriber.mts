/** DELETE /api/newsletter/{id} (bearer) → 204, or 404 when there is no such subscriber. */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { deleteSubscriberHandler } from '../../src/server/newsletter.ts';

export default route('newsletter-subscriber', { DELETE: deleteSubscriberHandler });

export const config: Config = { path: '/api/newsletter/:id' };
