/**
 * GET  /newsletter/preferences?token=… → the reader's preference page: topics, language, pause, unsubscribe
 * POST /newsletter/preferences?token=… (form: action=save with lang and topic-<id>=on; action=pause|resume)
 *   → the page again with the change made and noted in the subscriber's record.
 * Tampered 400, no longer subscribed 410, unreadable form or no topic 400 (nothing changes) — each as a page.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { preferenceHandlers } from '../../src/server/newsletter-preferences.tsx';

export default route('newsletter-preferences', preferenceHandlers);

/** German readers' links carry the `/de` prefix: the page answers in their language. */
export const config: Config = { path: ['/newsletter/preferences', '/de/newsletter/preferences'] };
