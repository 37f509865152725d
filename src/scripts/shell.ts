/**
 * Behaviour every page shares: the loader's completion, the start cookie, the scroll-to-top button and
 * the scroll-reveal animations.
 */
import { startCookieString } from '../lib/start-cookie.ts';

export const LOADER_MS = 800;
export const SCROLL_TOP_THRESHOLD_PX = 500;

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

document.cookie = startCookieString();
if (root.classList.contains('is-loading')) window.setTimeout(completeLoading, LOADER_MS);
else completeLoading();
initScrollTop();
initReveal();
