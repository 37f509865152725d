/** POST /admin/login/passkey/options {ticket} → 200 WebAuthn request options for the account's passkeys. */
import type { Config } from '@netlify/functions';
import { passkeyLoginOptions } from '../../src/server/admin-session.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-login-passkey-options', { POST: passkeyLoginOptions });

export const config: Config = { path: '/admin/login/passkey/options' };
