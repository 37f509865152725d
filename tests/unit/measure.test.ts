import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { CONSENT_KEY, CONSENT_VALUE } from '../../src/lib/consent.ts';

test('the eager measurement script checks the consent entry the cookie banner stores', () => {
  const source = readFileSync('src/scripts/measure.ts', 'utf8');
  expect(source).toContain(`localStorage.getItem('${CONSENT_KEY}') === '${CONSENT_VALUE}'`);
  expect(source).not.toMatch(/^import /m);
});
