/**
 * POST /admin/login {email, password} → 200 {mfa: {ticket, methods}}, or {token, enrol: true} for an account
 * without a second factor yet; 401 for a wrong e-mail or password
 * GET and HEAD fall through to the static sign-in page, so they are not routed here.
 */
import type { Config } from '@netlify/functions';
import { login } from '../../src/server/admin-session.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-login', { POST: login });

export const config: Config = { path: '/admin/login', method: ['POST', 'PUT', 'PATCH', 'DELETE'] };
