/** GET /api/activity/actions (owner) → 200 the action names the log uses. */
import type { Config } from '@netlify/functions';
import { listActivityActions } from '../../src/server/activity.ts';
import { route } from '../../src/server/http.ts';

export default route('activity-actions', { GET: listActivityActions });

export const config: Config = { path: '/api/activity/actions' };
