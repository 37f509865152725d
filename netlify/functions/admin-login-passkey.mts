/** POST /admin/login/passkey {ticket, response} → 200 {token}: the second step with a passkey. */
import type { Config } from '@netlify/functions';
import { passkeyLogin } from '../../src/server/admin-session.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-login-passkey', { POST: passkeyLogin });

export const config: Config = { path: '/admin/login/passkey' };
