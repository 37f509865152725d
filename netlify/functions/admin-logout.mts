/** POST /admin/logout (bearer) → 204; this session ends (sign out everywhere: /api/account/sessions/revoke-all). */
import type { Config } from '@netlify/functions';
import { logout } from '../../src/server/admin-session.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-logout', { POST: logout });

export const config: Config = { path: '/admin/logout' };
