/** POST /admin/password-reset/confirm {token, password} → 200 {}; every session ends; 410 link_expired. */
import type { Config } from '@netlify/functions';
import { confirmReset } from '../../src/server/account-recovery.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-password-reset-confirm', { POST: confirmReset });

export const config: Config = { path: '/admin/password-reset/confirm' };
