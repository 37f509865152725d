/**
 * GET  /meeting/cancel?token=… → a page naming the meeting with a "Cancel the meeting" button (changes nothing)
 * POST /meeting/cancel?token=… → cancels it, frees the slot and mails both sides a calendar CANCEL
 * Tampered 400; used up by a move 409; started, declined, cancelled or deleted 410 — each as a page.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { cancelMeetingLinkHandlers } from '../../src/server/meeting-links.ts';

export default route('meeting-cancel', cancelMeetingLinkHandlers);

/** German readers' links carry the `/de` prefix: the page answers in their language. */
export const config: Config = { path: ['/meeting/cancel', '/de/meeting/cancel'] };
