/** POST /api/team/{id}/resend (owner) → 202: a fresh invitation link by mail; the old one stops working. */
import type { Config } from '@netlify/functions';
import { resendInvitation } from '../../src/server/team.ts';
import { route } from '../../src/server/http.ts';

export default route('team-resend', { POST: resendInvitation });

export const config: Config = { path: '/api/team/:id/resend' };
