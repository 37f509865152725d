/** GET /api/meeting.ics?start=<UTC ISO> → the requested meeting as an iCalendar file. */
import type { Config } from '@netlify/functions';
import { meetingCalendar } from '../../src/server/contact.ts';
import { route } from '../../src/server/http.ts';

export default route('meeting-ics', { GET: meetingCalendar });

export const config: Config = { path: '/api/meeting.ics' };
