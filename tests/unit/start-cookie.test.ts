import { expect, test } from 'vitest';
import { startCookieString } from '../../src/lib/start-cookie.ts';

test('the start cookie is SameSite None, Secure, path / and lives 3600 s', () => {
  const parts = startCookieString().split('; ');
  expect(parts[0]).toBe('korvel_start=sample');
  expect(parts).toEqual(expect.arrayContaining(['Max-Age=3600', 'Path=/', 'SameSite=None', 'Secure']));
});
