/**
 * GET /api/deliverability (bearer, owner or editor) → 200 with the last 30 days' rates and warnings;
 * GET /api/suppressions (bearer, owner or editor; ?q=&reason=&page=&pageSize=) → 200 with the list and
 * X-Total-Count; DELETE /api/suppressions/{id} (bearer, owner) → 200 with the lifted row, 404 none, 409 not a
 * bounce.
 */
import type { Config } from '@netlify/functions';
import { routes } from '../../src/server/http.ts';
import {
  deliverabilityHandler,
  liftSuppressionHandler,
  listSuppressionsHandler,
} from '../../src/server/suppressions.ts';

export default routes('suppressions', {
  '/api/suppressions': { GET: listSuppressionsHandler },
  '/api/suppressions/:id': { DELETE: liftSuppressionHandler },
  '/api/deliverability': { GET: deliverabilityHandler },
});

export const config: Config = { path: ['/api/suppressions', '/api/suppressions/:id', '/api/deliverability'] };
