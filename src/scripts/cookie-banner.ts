/**
 * <cookie-banner>: the cookie question every page asks (SPEC: shown 4 s after the page loads unless a
 * `cookies` value is stored; Allow stores `cookies=true` and hides it, Decline hides it and stores nothing, so
 * the next page asks again). The server draws the banner hidden; this shows it and answers its two buttons.
 * It was a React island until issue 38: React's 68 KB were over half of a first visit's byte budget for two
 * buttons and a timer (docs/decisions.md, "Cookie banner").
 */
import { CONSENT_KEY, CONSENT_VALUE, consentStored } from '../lib/consent.ts';

export const COOKIE_BANNER_DELAY_MS = 4000;

export class CookieBanner extends HTMLElement {
  #timer: number | undefined;

  connectedCallback() {
    if (consentStored()) return;
    this.querySelector('[data-allow]')?.addEventListener('click', () => this.#allow());
    this.querySelector('[data-decline]')?.addEventListener('click', () => this.#close());
    this.#timer = window.setTimeout(() => {
      this.hidden = false;
    }, COOKIE_BANNER_DELAY_MS);
  }

  disconnectedCallback() {
    window.clearTimeout(this.#timer);
  }

  #allow() {
    try {
      window.localStorage.setItem(CONSENT_KEY, CONSENT_VALUE);
    } catch {
      // Storage blocked: hide for this page view; the banner asks again on the next one.
    }
    // Measurement starts with this page view (next pages load the beacon themselves; src/scripts/measure.ts).
    void import('./beacon.ts');
    this.#close();
  }

  #close() {
    window.clearTimeout(this.#timer);
    this.hidden = true;
  }
}

if (!customElements.get('cookie-banner')) customElements.define('cookie-banner', CookieBanner);
