/**
 * POST /admin/login/mfa {ticket, method: "totp" | "recovery", code} → 200 {token}: the second step of a
 * sign-in. 401 `invalid_code` for a wrong or replayed code, 401 `ticket_expired` once the ticket is over
 * 5 minutes old, used, or out of its 5 tries; 429 as for passwords.
 */
import type { Config } from '@netlify/functions';
import { loginMfa } from '../../src/server/admin-session.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-login-mfa', { POST: loginMfa });

export const config: Config = { path: '/admin/login/mfa' };
