import type { ClientDirective } from 'astro';

/**
 * `client:interaction` hydrates an island the first time a visitor reaches for it: a pointer over it (a mouse
 * passing, a finger touching) or focus arriving in it (Tab, a tapped field, autofill). A visit that only reads
 * downloads none of its code. Until then the server's markup has to work on its own: a form posts natively, and
 * its fields are uncontrolled, so what was typed while the code loaded is still there once it has hydrated.
 */
const interactionDirective: ClientDirective = (load, _options, island) => {
  const reached = new AbortController();
  const hydrate = async () => {
    reached.abort();
    (await load())();
  };
  for (const type of ['pointerover', 'focusin'])
    island.addEventListener(type, () => void hydrate(), { passive: true, signal: reached.signal });
};

export default interactionDirective;
