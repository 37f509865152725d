/** POST /api/account/sessions/revoke-all → 204: sign out everywhere, this session included. */
import type { Config } from '@netlify/functions';
import { revokeAllSessions } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-sessions-revoke-all', { POST: revokeAllSessions });

export const config: Config = { path: '/api/account/sessions/revoke-all' };
