/** POST /api/account/passkeys {response, name?} → 201 {id, token, recoveryCodes}. */
import type { Config } from '@netlify/functions';
import { addPasskey } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-passkeys', { POST: addPasskey });

export const config: Config = { path: '/api/account/passkeys' };
