import type { ClientDirective } from 'astro';
import { holdsSignOutNote, holdsToken } from './admin-session.ts';
import { hydrateNow, whenReached } from './interaction.ts';

/**
 * `client:signin`, for the sign-in form: at once when the browser holds a token (the form checks it and moves a
 * signed-in admin on) or a note on why the last session ended (shown above the form); otherwise the first time
 * the visitor reaches for the form, like `client:interaction`, so a first visit loads no React. The form's
 * button stays disabled until then, so nothing is sent natively.
 */
const signinDirective: ClientDirective = (load, _options, island) => {
  if (holdsToken() || holdsSignOutNote()) void hydrateNow(load);
  else whenReached(island, () => void hydrateNow(load));
};

export default signinDirective;
