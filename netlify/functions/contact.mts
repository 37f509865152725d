/**
 * POST /api/contact: a contact message or (`kind: "meeting"`) a 30-minute meeting request.
 * JSON → 201 {message, next}; a plain form post → 303 to /thanks, or back to /contact with the fields to fix.
 */
import type { Config } from '@netlify/functions';
import { submitInquiry } from '../../src/server/contact.ts';
import { route } from '../../src/server/http.ts';

export default route('contact', { POST: submitInquiry });

export const config: Config = { path: '/api/contact' };
