/**
 * Offers a reader whose browser prefers another language this page in it, once (LanguageOffer.astro). Only
 * when no language is stored: showing the offer stores the page's language under `lng` (the reader keeps it
 * until they choose), taking it stores the offered one, so nobody is asked twice. Loaded by shell.ts only for
 * such a browser on a page with a twin.
 */
import { chooseLanguage, toLanguageCode } from '../stores/language.ts';

export function offerLanguage(offer: HTMLElement): void {
  let storage: Storage;
  try {
    storage = window.localStorage;
    if (storage.getItem('lng')) return;
    storage.setItem('lng', toLanguageCode(document.documentElement.lang));
  } catch {
    return; // Storage blocked: the offer could not be remembered, so it is not made.
  }
  offer.hidden = false;
  const accept = offer.querySelector<HTMLAnchorElement>('[data-language-offer-accept]')!;
  accept.addEventListener('click', (event) => {
    event.preventDefault();
    chooseLanguage(toLanguageCode(offer.lang), { storage, open: accept.href });
  });
  offer.querySelector('[data-language-offer-dismiss]')?.addEventListener('click', () => {
    offer.hidden = true;
    document.getElementById('main')?.focus({ preventScroll: true });
  });
}
