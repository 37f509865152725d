/**
 * Every existing article and news item, in both languages, through what the Content tab's server does to a
 * file (src/server/content/pieces.ts, service.ts): cut at the fences and joined again, its front matter
 * written back unchanged and with one field changed, and validated by the collection's own schema against
 * the repository's images and team. Saving a piece unchanged must leave its file byte-identical.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  frontmatterOf,
  joinSource,
  pieceBranch,
  pieceKey,
  pieceOfBranch,
  pieceOfFile,
  splitSource,
  updateFrontmatter,
} from '../../src/server/content/pieces.ts';
import { frontmatterErrors } from '../../src/server/content/service.ts';

const root = process.cwd();
const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
const pieces = ['src/content/blog', 'src/content/news', 'src/content/de/blog', 'src/content/de/news'].flatMap(
  (dir) => walk(dir).filter((file) => file.endsWith('.mdx')),
);
// The repository as the schema's judge sees it: every file under src/assets and the team.
const tree = new Map(
  [...walk('src/assets'), ...walk('src/content/team')].map((file) => [
    relative(root, join(root, file)),
    'blob',
  ]),
);

test('there are pieces in all four folders', () => {
  expect(pieces.length).toBeGreaterThanOrEqual(36);
  expect(new Set(pieces.map((file) => file.split('/').slice(0, -1).join('/'))).size).toBe(4);
});

describe.each(pieces)('%s', (file) => {
  const text = readFileSync(join(root, file), 'utf8');
  const source = splitSource(text);

  test('is one piece, and saving it unchanged writes the same bytes', () => {
    expect(pieceOfFile(file)).toBeDefined();
    expect(source.yaml.length).toBeGreaterThan(0);
    expect(joinSource(source)).toBe(text);
    const data = frontmatterOf(source.yaml);
    expect(joinSource({ yaml: updateFrontmatter(source.yaml, data), body: source.body })).toBe(text);
    // The same data as a browser sends it back (through JSON), too.
    const viaJson = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
    expect(updateFrontmatter(source.yaml, viaJson)).toBe(source.yaml);
  });

  test('a changed title changes its line and nothing else', () => {
    const data = frontmatterOf(source.yaml);
    const changed = updateFrontmatter(source.yaml, {
      ...data,
      title: 'A title the test gave it: plant design',
    });
    const before = source.yaml.split('\n');
    const after = changed.split('\n');
    expect(after).toHaveLength(before.length);
    expect(after.filter((line, i) => line !== before[i])).toEqual([
      "title: 'A title the test gave it: plant design'",
    ]);
  });

  test('its front matter passes the collection’s schema as the Content tab checks it', () => {
    expect(frontmatterErrors(file, frontmatterOf(source.yaml), tree)).toBeUndefined();
  });
});

describe('names that reach git', () => {
  test('plain slugs of the editable collections only', () => {
    expect(pieceKey({ collection: 'blog', lang: 'de', id: 'gmp' })).toEqual({
      collection: 'blog',
      lang: 'de',
      id: 'gmp',
    });
    for (const params of [
      { collection: 'sectors', lang: 'en', id: 'pharma' },
      { collection: 'blog', lang: 'fr', id: 'gmp' },
      { collection: 'blog', lang: 'en', id: '../gmp' },
      { collection: 'blog', lang: 'en', id: 'gmp/../../x' },
      { collection: 'blog', lang: 'en', id: 'Gmp' },
      { collection: 'blog', lang: 'en', id: 'gmp-' },
      { collection: 'blog', lang: 'en', id: '' },
      { collection: '__proto__', lang: 'en', id: 'gmp' },
    ])
      expect(() => pieceKey(params), JSON.stringify(params)).toThrow(/collection|language|slug/);
  });

  test('branches: content/<collection>/<id>, German under content/de/, read back to the same piece', () => {
    const english = { collection: 'news', lang: 'en', id: 'achema' } as const;
    const german = { ...english, lang: 'de' } as const;
    expect(pieceBranch(english)).toBe('content/news/achema');
    expect(pieceBranch(german)).toBe('content/de/news/achema');
    expect(pieceOfBranch(pieceBranch(english))).toEqual(english);
    expect(pieceOfBranch(pieceBranch(german))).toEqual(german);
    expect(pieceOfBranch('content/sectors/pharma')).toBeUndefined();
  });
});
