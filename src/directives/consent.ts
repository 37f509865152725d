import type { ClientDirective } from 'astro';
import { CONSENT_KEY } from '../lib/consent.ts';

/**
 * `client:consent` hydrates an island only while no cookie consent is stored. A returning visitor who
 * already answered downloads none of the island's code; for others it loads once the page is idle.
 */
const consentDirective: ClientDirective = (load) => {
  try {
    if (window.localStorage.getItem(CONSENT_KEY) !== null) return;
  } catch {
    return;
  }
  const hydrate = async () => (await load())();
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(() => void hydrate(), { timeout: 2000 });
  else window.setTimeout(() => void hydrate(), 200);
};

export default consentDirective;
