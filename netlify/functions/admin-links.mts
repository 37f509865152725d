/**
 * The mailed links' calls (no bearer token):
 * POST /admin/invite/inspect {token} → 200 {email, role}; 410 link_expired for an expired, used or revoked link
 * POST /admin/invite/accept {token, password, name?} → 200 {token, enrol: true}
 * POST /admin/password-reset {email} → 202, the same reply for every address
 * POST /admin/password-reset/confirm {token, password} → 200 {}; every session of the account ends
 */
import type { Config } from '@netlify/functions';
import {
  acceptInvitation,
  confirmReset,
  inspectInvitation,
  requestReset,
} from '../../src/server/account-recovery.ts';
import { routes } from '../../src/server/http.ts';

const table = {
  '/admin/invite/inspect': { POST: inspectInvitation },
  '/admin/invite/accept': { POST: acceptInvitation },
  '/admin/password-reset': { POST: requestReset },
  '/admin/password-reset/confirm': { POST: confirmReset },
};

export default routes('admin-links', table);

// Netlify reads `config` statically: the paths are written out, in the table's order.
export const config: Config = {
  path: [
    '/admin/invite/inspect',
    '/admin/invite/accept',
    '/admin/password-reset',
    '/admin/password-reset/confirm',
  ],
};
