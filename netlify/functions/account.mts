/**
 * The signed-in person's own account (bearer; an enrolment session reaches these calls and nothing else):
 * GET    /api/account → 200 the account; PATCH {name} → 200
 * POST   /api/account/password {currentPassword, password} → 200 {token}; every other session ends
 * POST   /api/account/totp → 200 {secret, uri}; DELETE → 204, or 409 last_factor
 * POST   /api/account/totp/confirm {code} → 200 {token, recoveryCodes} (codes for the first factor only)
 * POST   /api/account/passkeys/options → 200 WebAuthn creation options
 * POST   /api/account/passkeys {response, name?} → 201 {id, token, recoveryCodes}
 * DELETE /api/account/passkeys/{id} → 204, or 409 last_factor
 * POST   /api/account/recovery-codes → 200 {recoveryCodes}: ten new ones, the old ones stop working
 * GET    /api/account/sessions → 200 [{id, createdAt, lastSeenAt, expiresAt, current, client}]
 * POST   /api/account/sessions/revoke-all → 204: sign out everywhere, this session included
 */
import type { Config } from '@netlify/functions';
import * as account from '../../src/server/account.ts';
import { routes } from '../../src/server/http.ts';

const table = {
  '/api/account': { GET: account.getAccount, PATCH: account.updateAccount },
  '/api/account/password': { POST: account.changePassword },
  '/api/account/totp': { POST: account.startTotp, DELETE: account.removeTotpHandler },
  '/api/account/totp/confirm': { POST: account.confirmTotpHandler },
  '/api/account/passkeys/options': { POST: account.passkeyOptions },
  '/api/account/passkeys': { POST: account.addPasskey },
  '/api/account/passkeys/:id': { DELETE: account.removePasskey },
  '/api/account/recovery-codes': { POST: account.renewRecoveryCodes },
  '/api/account/sessions': { GET: account.listSessions },
  '/api/account/sessions/revoke-all': { POST: account.revokeAllSessions },
};

export default routes('account', table);

// Netlify reads `config` statically: the paths are written out, in the table's order.
export const config: Config = {
  path: [
    '/api/account',
    '/api/account/password',
    '/api/account/totp',
    '/api/account/totp/confirm',
    '/api/account/passkeys/options',
    '/api/account/passkeys',
    '/api/account/passkeys/:id',
    '/api/account/recovery-codes',
    '/api/account/sessions',
    '/api/account/sessions/revoke-all',
  ],
};
