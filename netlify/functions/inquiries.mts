/** GET /api/inquiries (bearer; optional page, pageSize) → 200 [inquiry], newest first, X-Total-Count */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { listInquiriesHandler } from '../../src/server/inquiries.ts';

export default route('inquiries', { GET: listInquiriesHandler });

export const config: Config = { path: '/api/inquiries' };
