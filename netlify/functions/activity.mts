/**
 * The activity log (owner only, bearer):
 * GET /api/activity?page=&pageSize=&action=&actor= → 200 [{id, at, actor, action, target, client}], newest
 *     first, X-Total-Count
 * GET /api/activity/actions → 200 the action names the log uses
 */
import type { Config } from '@netlify/functions';
import { listActivityActions, listActivityHandler } from '../../src/server/activity.ts';
import { routes } from '../../src/server/http.ts';

const table = {
  '/api/activity': { GET: listActivityHandler },
  '/api/activity/actions': { GET: listActivityActions },
};

export default routes('activity', table);

// Netlify reads `config` statically: the paths are written out, in the table's order.
export const config: Config = {
  path: ['/api/activity', '/api/activity/actions'],
};
