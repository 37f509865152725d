/** PATCH /api/team/{id} (owner) {role?, disabled?} → 200; DELETE → 204; 409 last_owner for the last active owner. */
import type { Config } from '@netlify/functions';
import { removeMember, updateMember } from '../../src/server/team.ts';
import { route } from '../../src/server/http.ts';

export default route('team-member', { PATCH: updateMember, DELETE: removeMember });

export const config: Config = { path: '/api/team/:id' };
