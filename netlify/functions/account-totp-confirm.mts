/** POST /api/account/totp/confirm {code} → 200 {token, recoveryCodes} (codes only for the first factor). */
import type { Config } from '@netlify/functions';
import { confirmTotpHandler } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-totp-confirm', { POST: confirmTotpHandler });

export const config: Config = { path: '/api/account/totp/confirm' };
