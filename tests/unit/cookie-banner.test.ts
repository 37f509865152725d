// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { COOKIE_BANNER_DELAY_MS } from '../../src/scripts/cookie-banner.ts';

/** The server's markup (src/components/CookieBanner.astro), trimmed to what the script reads. */
const markup = `
  <cookie-banner hidden>
    <section aria-label="Cookie consent" data-cookie-banner>
      <p>We use cookies. <a href="/privacy-policy">privacy policy</a>.</p>
      <button type="button" data-decline>Decline</button>
      <button type="button" data-allow>Allow cookies</button>
    </section>
  </cookie-banner>`;

const banner = () => document.querySelector('cookie-banner') as HTMLElement;
const open = () => document.body.insertAdjacentHTML('beforeend', markup);

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('<cookie-banner>', () => {
  test('stays hidden for 4 s, then asks', () => {
    open();
    vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS - 1);
    expect(banner().hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(banner().hidden).toBe(false);
  });

  test('Allow stores cookies=true and hides', () => {
    open();
    vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS);
    banner().querySelector<HTMLButtonElement>('[data-allow]')!.click();
    expect(localStorage.getItem('cookies')).toBe('true');
    expect(banner().hidden).toBe(true);
  });

  test('Decline hides without storing anything', () => {
    open();
    vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS);
    banner().querySelector<HTMLButtonElement>('[data-decline]')!.click();
    expect(localStorage.getItem('cookies')).toBeNull();
    expect(banner().hidden).toBe(true);
  });

  test('an answer before the 4 s keeps it from appearing on this page', () => {
    open();
    banner().querySelector<HTMLButtonElement>('[data-decline]')!.click();
    vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS * 2);
    expect(banner().hidden).toBe(true);
  });

  test('never shows when consent is already stored', () => {
    localStorage.setItem('cookies', 'true');
    open();
    vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS * 2);
    expect(banner().hidden).toBe(true);
  });

  test('a page that removes it before the 4 s leaves no timer behind', () => {
    open();
    banner().remove();
    expect(vi.getTimerCount()).toBe(0);
  });
});
