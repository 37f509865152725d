/**
 * The second step of a sign-in, with the ticket POST /admin/login gave:
 * POST /admin/login/mfa {ticket, method: "totp" | "recovery", code} → 200 {token}
 * POST /admin/login/passkey/options {ticket} → 200 WebAuthn request options
 * POST /admin/login/passkey {ticket, response} → 200 {token}
 * 401 invalid_code for a wrong or replayed code, 401 ticket_expired once the ticket is over 5 minutes old,
 * used, or out of its 5 tries; 429 as for passwords.
 */
import type { Config } from '@netlify/functions';
import { loginMfa, passkeyLogin, passkeyLoginOptions } from '../../src/server/admin-session.ts';
import { routes } from '../../src/server/http.ts';

const table = {
  '/admin/login/mfa': { POST: loginMfa },
  '/admin/login/passkey/options': { POST: passkeyLoginOptions },
  '/admin/login/passkey': { POST: passkeyLogin },
};

export default routes('admin-login-second-step', table);

// Netlify reads `config` statically: the paths are written out, in the table's order.
export const config: Config = {
  path: ['/admin/login/mfa', '/admin/login/passkey/options', '/admin/login/passkey'],
};
