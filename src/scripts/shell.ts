/**
 * Every page's one eager script (BaseLayout.astro): the loader's completion, the start cookie, the
 * scroll-to-top button, the scroll-reveal animations and the stored language's label; everything else
 * loads when it is needed. The header menus, the language dialog, the blog and reference filters and the
 * newsletter forms load on first use (first-use.ts), the search dialog's code when it opens, the offer of this
 * page in the browser's language only for a browser that prefers it. Keeping this small keeps every page under
 * the eager JavaScript budget (README, "JavaScript budget").
 */
import { startCookieString } from '../lib/start-cookie.ts';
import { onFirstUse } from './first-use.ts';

const LOADER_MS = 800;
const SCROLL_TOP_THRESHOLD_PX = 500;

const root = document.documentElement;

function completeLoading() {
  root.classList.remove('is-loading');
  document.getElementById('app')?.classList.add('visible');
  document.dispatchEvent(new CustomEvent('korvel:loaded'));
}

function initScrollTop() {
  const button = document.querySelector<HTMLButtonElement>('[data-scroll-top]');
  if (!button) return;
  const update = () => {
    button.hidden = window.scrollY <= SCROLL_TOP_THRESHOLD_PX;
  };
  window.addEventListener('scroll', update, { passive: true });
  update();
  button.addEventListener('click', () => {
    const calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: calm ? 'auto' : 'smooth' });
    document.querySelector<HTMLElement>('.skip-link')?.focus({ preventScroll: true });
  });
}

function initReveal() {
  const targets = document.querySelectorAll<HTMLElement>('[data-reveal]');
  if (!('IntersectionObserver' in window) || targets.length === 0) {
    targets.forEach((el) => el.classList.add('is-revealed'));
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.classList.add('is-revealed');
        observer.unobserve(entry.target);
      }
    },
    { rootMargin: '0px 0px -8% 0px' },
  );
  targets.forEach((el) => observer.observe(el));
}

/** A page with a twin in the browser's language may offer it once (LanguageOffer.astro, language-offer.ts). */
function initLanguageOffer() {
  const offer = document.querySelector<HTMLElement>('[data-language-offer]');
  if (offer && navigator.language.slice(0, 2) === offer.lang)
    void import('./language-offer.ts').then((module) => module.offerLanguage(offer));
}

/**
 * The header's search (SiteSearch.astro): the button opens the native dialog at once, so typing starts
 * while its code loads (and, on the first search, Pagefind).
 */
function initSearchButton() {
  document.querySelector('[data-search-open]')?.addEventListener('click', () => {
    const dialog = document.querySelector<HTMLDialogElement>('[data-search-dialog]')!;
    dialog.showModal();
    dialog.querySelector('input')?.focus();
    void import('./site-search.ts').then((module) => module.attachSearchDialog(dialog));
  });
}

/**
 * Each newsletter form (NewsletterBlock.astro) loads its script, with the shared schema, when a visitor reaches
 * for it: a click on Subscribe before then is held and replayed, and an address sent with Enter before the
 * script has come posts as plain HTML, as without JavaScript.
 */
function initNewsletterForms() {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-newsletter]'))
    onFirstUse(form, 'button[type="submit"]', () =>
      import('./newsletter-form.ts').then(({ enhance }) => enhance(form)),
    );
}

document.cookie = startCookieString();
if (root.classList.contains('is-loading')) window.setTimeout(completeLoading, LOADER_MS);
else completeLoading();
initScrollTop();
initReveal();
initLanguageOffer();
initSearchButton();
initNewsletterForms();

onFirstUse('site-nav', '[data-nav-toggle], [data-burger]', () =>
  import('./site-nav.ts').then((module) => module.initSiteNav()),
);
onFirstUse('language-picker', 'button', () =>
  import('./language-picker.ts').then((module) => module.initLanguagePicker()),
);
onFirstUse('[data-blog-filter]', 'a[data-status]', () =>
  import('./blog-filter.ts').then((module) => module.initBlogFilter()),
);
// A filtered address (`?division=…`) shows its list at once; otherwise the filter loads on first use.
const referenceFilter = () => import('./reference-filter.ts');
if (document.querySelector('[data-reference-filter][data-enhance]') && location.search)
  void referenceFilter();
else
  onFirstUse(
    '[data-reference-filter][data-enhance]',
    'a[data-filter-facet], a[data-filter-clear]',
    referenceFilter,
  );
