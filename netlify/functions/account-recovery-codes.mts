/** POST /api/account/recovery-codes → 200 {recoveryCodes}: ten new codes; the old ones stop working. */
import type { Config } from '@netlify/functions';
import { renewRecoveryCodes } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-recovery-codes', { POST: renewRecoveryCodes });

export const config: Config = { path: '/api/account/recovery-codes' };
