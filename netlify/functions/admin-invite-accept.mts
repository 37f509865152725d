/** POST /admin/invite/accept {token, password, name?} → 200 {token, enrol: true}; 410 link_expired. */
import type { Config } from '@netlify/functions';
import { acceptInvitation } from '../../src/server/account-recovery.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-invite-accept', { POST: acceptInvitation });

export const config: Config = { path: '/admin/invite/accept' };
