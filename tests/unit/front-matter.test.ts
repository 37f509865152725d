import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { frontMatterOf } from '../../scripts/lib/front-matter.ts';

const dir = mkdtempSync(join(tmpdir(), 'front-matter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('reads a file once while it stays as it was, and again once it changes', () => {
  const file = join(dir, 'article.mdx');
  writeFileSync(file, '---\ntitle: Cleanroom zoning\ndate: 2026-03-02\n---\n\nBody.\n');
  const first = frontMatterOf(file);
  expect(first).toEqual({ title: 'Cleanroom zoning', date: '2026-03-02' });
  expect(frontMatterOf(file)).toBe(first);

  writeFileSync(file, '---\ntitle: Cleanroom zoning, revised\ndate: 2026-03-02\n---\n\nBody.\n');
  utimesSync(file, new Date(), new Date(Date.now() + 5_000));
  expect(frontMatterOf(file)).toMatchObject({ title: 'Cleanroom zoning, revised' });
});

test('shares its answer frozen, and has none for a file without front matter', () => {
  const file = join(dir, 'plain.mdx');
  writeFileSync(file, 'No front matter here.\n');
  expect(frontMatterOf(file)).toBeUndefined();
  const dated = join(dir, 'dated.mdx');
  writeFileSync(dated, '---\ntags: [gmp, hvac]\n---\n');
  const data = frontMatterOf(dated)!;
  expect(Object.isFrozen(data.tags)).toBe(true);
  expect(() => (data.tags as string[]).push('water')).toThrow(TypeError);
});
