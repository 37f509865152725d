/**
 * <cookie-preferences>: the preference centre of /cookie-policy#cookie. Shows whether consent is stored and
 * lets the visitor change the answer given in the banner, with the banner's own semantics.
 */
import { CONSENT_KEY, CONSENT_VALUE, consentStored } from '../lib/consent.ts';

class CookiePreferences extends HTMLElement {
  connectedCallback() {
    const status = this.querySelector<HTMLElement>('[data-status]')!;
    const saved = this.querySelector<HTMLElement>('[data-saved]')!;
    const show = () => {
      status.textContent = consentStored() ? this.dataset.allowed! : this.dataset.none!;
    };
    const store = (allow: boolean) => {
      try {
        if (allow) window.localStorage.setItem(CONSENT_KEY, CONSENT_VALUE);
        else window.localStorage.removeItem(CONSENT_KEY);
        // Allowing measures this page view too; declining stops it at once (the beacon checks before sending).
        if (allow) void import('./beacon.ts');
      } catch {
        // Storage blocked: nothing can be remembered, which is the declined state anyway.
      }
      show();
      saved.textContent = allow ? this.dataset.savedAllowed! : this.dataset.savedDeclined!;
    };
    this.querySelector('[data-allow]')!.addEventListener('click', () => store(true));
    this.querySelector('[data-decline]')!.addEventListener('click', () => store(false));
    this.hidden = false;
    show();
  }
}

customElements.define('cookie-preferences', CookiePreferences);
