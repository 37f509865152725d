/** POST /api/account/totp → 200 {secret, uri}; DELETE → 204, or 409 last_factor when it is the only factor. */
import type { Config } from '@netlify/functions';
import { removeTotpHandler, startTotp } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-totp', { POST: startTotp, DELETE: removeTotpHandler });

export const config: Config = { path: '/api/account/totp' };
