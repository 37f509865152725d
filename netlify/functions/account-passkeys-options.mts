/** POST /api/account/passkeys/options → 200 WebAuthn creation options. */
import type { Config } from '@netlify/functions';
import { passkeyOptions } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-passkeys-options', { POST: passkeyOptions });

export const config: Config = { path: '/api/account/passkeys/options' };
