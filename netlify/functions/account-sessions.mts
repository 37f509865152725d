/** GET /api/account/sessions → 200 [{id, createdAt, lastSeenAt, expiresAt, current, client}]. */
import type { Config } from '@netlify/functions';
import { listSessions } from '../../src/server/account.ts';
import { route } from '../../src/server/http.ts';

export default route('account-sessions', { GET: listSessions });

export const config: Config = { path: '/api/account/sessions' };
