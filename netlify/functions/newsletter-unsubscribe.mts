/**
 * GET  /newsletter/unsubscribe?token=… → a page with an "Unsubscribe" button (a GET never changes anything)
 * POST /newsletter/unsubscribe?token=… → our button, or a mail provider's RFC 8058 one-click POST
 *   (`List-Unsubscribe=One-Click`): deletes the subscriber and keeps only a suppression hash.
 * Tampered 400, already unsubscribed 410 — each as a page.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { unsubscribeLinkHandlers } from '../../src/server/newsletter-links.ts';

export default route('newsletter-unsubscribe', unsubscribeLinkHandlers);

/** German readers' links carry the `/de` prefix: the page answers in their language. */
export const config: Config = { path: ['/newsletter/unsubscribe', '/de/newsletter/unsubscribe'] };
