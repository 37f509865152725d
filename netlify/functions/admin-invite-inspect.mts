/** POST /admin/invite/inspect {token} → 200 {email, role}; 410 link_expired for an expired, used or revoked link. */
import type { Config } from '@netlify/functions';
import { inspectInvitation } from '../../src/server/account-recovery.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-invite-inspect', { POST: inspectInvitation });

export const config: Config = { path: '/admin/invite/inspect' };
