/** GET /api/meeting-slots → 200 {timeZone, minutes, days: [{date, slots: [{start, available}]}]} */
import type { Config } from '@netlify/functions';
import { listMeetingSlots } from '../../src/server/contact.ts';
import { route } from '../../src/server/http.ts';

export default route('meeting-slots', { GET: listMeetingSlots });

export const config: Config = { path: '/api/meeting-slots' };
