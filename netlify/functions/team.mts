/**
 * The team (owner only, bearer):
 * GET    /api/team → 200 [{id, email, name, role, status, lastSignInAt, createdAt, invitationExpiresAt, factors}]
 * POST   /api/team {email, role, name?} → 201 the invited account, and the invitation mail; 409 email_taken
 * PATCH  /api/team/{id} {role?, disabled?} → 200; DELETE → 204; 409 last_owner for the last active owner
 * POST   /api/team/{id}/resend → 202: a fresh invitation link; the old one stops working
 * POST   /api/team/{id}/reset-factors → 204: factors and recovery codes removed, sessions ended
 */
import type { Config } from '@netlify/functions';
import { routes } from '../../src/server/http.ts';
import * as team from '../../src/server/team.ts';

const table = {
  '/api/team': { GET: team.listTeam, POST: team.inviteMember },
  '/api/team/:id': { PATCH: team.updateMember, DELETE: team.removeMember },
  '/api/team/:id/resend': { POST: team.resendInvitation },
  '/api/team/:id/reset-factors': { POST: team.resetFactors },
};

export default routes('team', table);

// Netlify reads `config` statically: the paths are written out, in the table's order.
export const config: Config = {
  path: ['/api/team', '/api/team/:id', '/api/team/:id/resend', '/api/team/:id/reset-factors'],
};
