/**
 * GET  /newsletter/confirm?token=… → a page with a "Confirm" button (a GET never changes anything)
 * POST /newsletter/confirm?token=… → confirms the sign-up and queues the welcome mail
 * Tampered 400, expired or withdrawn 410, already used 409 — each as a page.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { confirmLinkHandlers } from '../../src/server/newsletter-links.ts';

export default route('newsletter-confirm', confirmLinkHandlers);

/** German readers' links carry the `/de` prefix: the page answers in their language. */
export const config: Config = { path: ['/newsletter/confirm', '/de/newsletter/confirm'] };
