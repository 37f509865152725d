/** GET /api/team (owner) → 200 the accounts; POST {email, role, name?} → 201 the invited account and the invitation mail; 409 email_taken. */
import type { Config } from '@netlify/functions';
import { inviteMember, listTeam } from '../../src/server/team.ts';
import { route } from '../../src/server/http.ts';

export default route('team', { GET: listTeam, POST: inviteMember });

export const config: Config = { path: '/api/team' };
