/** POST /api/account/password {currentPassword, password} → 200 {token}; every other session ends. */
import type { Config } from '@netlify/functions';
import { changePassword } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-password', { POST: changePassword });

export const config: Config = { path: '/api/account/password' };
