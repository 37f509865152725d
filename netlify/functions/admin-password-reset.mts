/** POST /admin/password-reset {email} → 202, the same reply for every address; a known one gets a 30-minute link. */
import type { Config } from '@netlify/functions';
import { requestReset } from '../../src/server/account-recovery.ts';
import { route } from '../../src/server/http.ts';

export default route('admin-password-reset', { POST: requestReset });

export const config: Config = { path: '/admin/password-reset' };
