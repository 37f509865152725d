/** GET /api/activity (owner; page, pageSize, action, actor) → 200 [entry], newest first, X-Total-Count. */
import type { Config } from '@netlify/functions';
import { listActivityHandler } from '../../src/server/activity.ts';
import { route } from '../../src/server/http.ts';

export default route('activity', { GET: listActivityHandler });

export const config: Config = { path: '/api/activity' };
