import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { PRIVACY_POLICY_VERSION } from '../../src/lib/schemas.ts';

test('the forms store the version of the privacy policy the site publishes', () => {
  const source = readFileSync('src/content/legal/privacy-policy.mdx', 'utf8');
  const frontMatter = parse(/^---\n([\s\S]*?)\n---/.exec(source)![1]!) as { version: string };
  expect(PRIVACY_POLICY_VERSION).toBe(frontMatter.version);
});
