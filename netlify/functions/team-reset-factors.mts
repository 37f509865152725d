/** POST /api/team/{id}/reset-factors (owner) → 204: factors and recovery codes removed, sessions ended. */
import type { Config } from '@netlify/functions';
import { resetFactors } from '../../src/server/team.ts';
import { route } from '../../src/server/http.ts';

export default route('team-reset-factors', { POST: resetFactors });

export const config: Config = { path: '/api/team/:id/reset-factors' };
