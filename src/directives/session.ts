import type { ClientDirective } from 'astro';
import { ADMIN_LOGIN } from '../lib/admin-token.ts';
import { holdsToken } from './admin-session.ts';
import { hydrateNow } from './interaction.ts';

/**
 * `client:session`, for the pages only a signed-in admin can use (the panel, the account page): with a stored
 * token the island hydrates at once and checks it with the server; without one the visitor goes straight to the
 * sign-in page (`replace`, so Back does not return here), and no island code loads.
 */
const sessionDirective: ClientDirective = (load) => {
  if (!holdsToken()) return window.location.replace(ADMIN_LOGIN);
  void hydrateNow(load);
};

export default sessionDirective;
