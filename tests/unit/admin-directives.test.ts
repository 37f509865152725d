// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import interaction from '../../src/directives/interaction.ts';
import session from '../../src/directives/session.ts';
import signin from '../../src/directives/signin.ts';
import { SIGNED_OUT_KEY, TOKEN_KEY } from '../../src/lib/admin-token.ts';

/** An island as Astro hands it to a directive, with a field inside, and a `load` that counts its calls. */
function island() {
  document.body.innerHTML = '<astro-island><form><input name="email"></form></astro-island>';
  const element = document.querySelector('astro-island') as HTMLElement;
  const hydrated = vi.fn();
  const load = vi.fn(async () => hydrated);
  return { element, load, hydrated };
}

/** Lets the directive's `await load()` and the hydration after it run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe('client:interaction', () => {
  test('hydrates once, on the first focus or pointer inside the island', async () => {
    const { element, load, hydrated } = island();
    interaction(load, { name: 'interaction', value: '' }, element);
    await settled();
    expect(load).not.toHaveBeenCalled();
    element.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    element.dispatchEvent(new Event('pointerover'));
    await settled();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrated).toHaveBeenCalledTimes(1);
  });
});

describe('client:signin', () => {
  test('a first visit loads nothing until the form is reached for', async () => {
    const { element, load, hydrated } = island();
    signin(load, { name: 'signin', value: '' }, element);
    await settled();
    expect(load).not.toHaveBeenCalled();
    element.dispatchEvent(new Event('pointerover'));
    await settled();
    expect(hydrated).toHaveBeenCalledTimes(1);
  });

  test('a stored token, usable or not, hydrates at once: the form checks it', async () => {
    localStorage.setItem(TOKEN_KEY, 'expired-or-not');
    const { element, load, hydrated } = island();
    signin(load, { name: 'signin', value: '' }, element);
    await settled();
    expect(hydrated).toHaveBeenCalledTimes(1);
    element.dispatchEvent(new Event('pointerover'));
    await settled();
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('a note on why the last session ended hydrates at once, so it is shown', async () => {
    sessionStorage.setItem(SIGNED_OUT_KEY, 'idle');
    const { element, load } = island();
    signin(load, { name: 'signin', value: '' }, element);
    await settled();
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('storage the browser refuses counts as nothing stored', async () => {
    localStorage.setItem(TOKEN_KEY, 'a token');
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    });
    const { element, load } = island();
    signin(load, { name: 'signin', value: '' }, element);
    await settled();
    expect(load).not.toHaveBeenCalled();
  });
});

describe('client:session', () => {
  test('with a stored token the island hydrates at once', async () => {
    localStorage.setItem(TOKEN_KEY, 'a token');
    const { element, load, hydrated } = island();
    session(load, { name: 'session', value: '' }, element);
    await settled();
    expect(hydrated).toHaveBeenCalledTimes(1);
  });

  test('without one no island code loads (the browser goes to /admin/login: budgets.spec.ts)', async () => {
    const { element, load } = island();
    // jsdom cannot go to another document and says so ("Not implemented: navigation"); the browser does.
    session(load, { name: 'session', value: '' }, element);
    await settled();
    expect(load).not.toHaveBeenCalled();
  });
});
