/** PATCH /api/inquiries/{id} (bearer) {handled: true|false} → 200 with the inquiry, or 404 when there is none. */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { updateInquiryHandler } from '../../src/server/inquiries.ts';

export default route('inquiry', { PATCH: updateInquiryHandler });

export const config: Config = { path: '/api/inquiries/:id' };
