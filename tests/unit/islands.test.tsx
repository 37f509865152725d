// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import CookieBanner, { COOKIE_BANNER_DELAY_MS } from '../../src/components/islands/CookieBanner.tsx';
import IslandErrorBoundary from '../../src/components/islands/IslandErrorBoundary.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const copy = {
  label: 'Cookie consent',
  text: 'We use cookies.',
  link: 'privacy policy',
  href: '/privacy-policy',
  allow: 'Allow cookies',
  decline: 'Decline',
  errorHeading: 'Unexpected Application Error!',
};

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  localStorage.clear();
  vi.useFakeTimers();
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const button = (name: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;

describe('CookieBanner', () => {
  test('stays hidden for 4 s, then asks', () => {
    act(() => root.render(<CookieBanner copy={copy} />));
    act(() => vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS - 1));
    expect(container.querySelector('[data-cookie-banner]')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(container.querySelector('[data-cookie-banner]')?.getAttribute('aria-label')).toBe(
      'Cookie consent',
    );
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/privacy-policy');
  });

  test('Allow stores cookies=true and hides', () => {
    act(() => root.render(<CookieBanner copy={copy} />));
    act(() => vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS));
    act(() => button('Allow cookies').click());
    expect(localStorage.getItem('cookies')).toBe('true');
    expect(container.querySelector('[data-cookie-banner]')).toBeNull();
  });

  test('Decline hides without storing anything', () => {
    act(() => root.render(<CookieBanner copy={copy} />));
    act(() => vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS));
    act(() => button('Decline').click());
    expect(localStorage.getItem('cookies')).toBeNull();
    expect(container.querySelector('[data-cookie-banner]')).toBeNull();
  });

  test('never shows when consent is already stored', () => {
    localStorage.setItem('cookies', 'true');
    act(() => root.render(<CookieBanner copy={copy} />));
    act(() => vi.advanceTimersByTime(COOKIE_BANNER_DELAY_MS * 2));
    expect(container.querySelector('[data-cookie-banner]')).toBeNull();
  });
});

describe('IslandErrorBoundary', () => {
  function Broken(): never {
    throw new Error('render failed');
  }

  test('shows the fallback heading when an island throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() =>
      root.render(
        <IslandErrorBoundary>
          <Broken />
        </IslandErrorBoundary>,
      ),
    );
    expect(container.querySelector('[role="alert"] h2')?.textContent).toBe('Unexpected Application Error!');
  });

  test('renders its children when nothing fails', () => {
    act(() =>
      root.render(
        <IslandErrorBoundary>
          <p>Working island</p>
        </IslandErrorBoundary>,
      ),
    );
    expect(container.textContent).toBe('Working island');
  });
});
