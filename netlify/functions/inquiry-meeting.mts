/**
 * POST /api/inquiries/{id}/meeting (bearer) {decision: "confirm", callLink} | {decision: "decline", note}
 * → 200 with the inquiry; 400 bad body, 404 no such inquiry, 409 not a meeting in a state that allows it.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { decideMeetingHandler } from '../../src/server/inquiries.ts';

export default route('inquiry-meeting', { POST: decideMeetingHandler });

export const config: Config = { path: '/api/inquiries/:id/meeting' };
