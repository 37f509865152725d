import type { ClientDirective } from 'astro';

/** Loads an island's code and hydrates it. */
export async function hydrateNow(load: Parameters<ClientDirective>[0]): Promise<void> {
  const hydrate = await load();
  await hydrate();
}

/**
 * Calls `hydrate` once, the first time a visitor reaches for `island`: a pointer over it (a mouse passing, a
 * finger touching) or focus arriving in it (Tab, a tapped field, autofill).
 */
export function whenReached(island: HTMLElement, hydrate: () => void): void {
  const reached = new AbortController();
  const once = () => {
    reached.abort();
    hydrate();
  };
  for (const type of ['pointerover', 'focusin'])
    island.addEventListener(type, once, { passive: true, signal: reached.signal });
}

/**
 * `client:interaction` hydrates an island the first time a visitor reaches for it. A visit that only reads
 * downloads none of its code. Until then the server's markup has to work on its own: a form posts natively, and
 * its fields are uncontrolled, so what was typed while the code loaded is still there once it has hydrated.
 */
const interactionDirective: ClientDirective = (load, _options, island) =>
  whenReached(island, () => void hydrateNow(load));

export default interactionDirective;
