/** DELETE /api/account/passkeys/{id} → 204; 409 last_factor when it is the only factor. */
import type { Config } from '@netlify/functions';
import { removePasskey } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-passkey', { DELETE: removePasskey });

export const config: Config = { path: '/api/account/passkeys/:id', method: 'DELETE' };
