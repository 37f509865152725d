/**
 * GET  /meeting/reschedule?token=… → the meeting and the free times of the next ten working days (changes nothing)
 * POST /meeting/reschedule?token=… slot=<ISO start> → moves it, frees the old slot and mails both sides the moved
 * invitation. No or an unoffered time 400 and a taken one 409, with the times again; tampered 400; used up by a
 * move 409; started, declined, cancelled or deleted 410 — each as a page.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { rescheduleMeetingLinkHandlers } from '../../src/server/meeting-links.ts';

export default route('meeting-reschedule', rescheduleMeetingLinkHandlers);

/** German readers' links carry the `/de` prefix: the page answers in their language. */
export const config: Config = { path: ['/meeting/reschedule', '/de/meeting/reschedule'] };
