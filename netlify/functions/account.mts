/** GET /api/account (bearer, an enrolment session too) → 200 the account; PATCH {name} → 200 the account. */
import type { Config } from '@netlify/functions';
import { getAccount, updateAccount } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account', { GET: getAccount, PATCH: updateAccount });

export const config: Config = { path: '/api/account' };
