/**
 * A bad article must stop the build with a message naming the file and the field. Runs `astro sync` (the
 * content step of every build) on a throwaway project that uses the real src/content.config.ts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = join(process.cwd(), 'test-results', 'content-fixture');
const astro = join(process.cwd(), 'node_modules', 'astro', 'bin', 'astro.mjs');

const good = {
  title: "'Commissioning a purified-water loop'",
  summary:
    "'How we flush, passivate and sample a new purified-water loop before the performance qualification starts, and what usually goes wrong.'",
  date: '2026-10-01',
  author: "'Ana Ilić'",
  discipline: "'Utilities'",
  tags: '[utilities]',
};
const images = (alt: (i: number) => string) =>
  ['images:', ...[1, 2, 3].map((i) => `  - src: '../../assets/drawing.svg'${alt(i)}`)].join('\n');

function syncWith(frontMatter: string): { status: number | null; output: string } {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'src', 'content', 'blog'), { recursive: true });
  mkdirSync(join(root, 'src', 'content', 'news'), { recursive: true });
  mkdirSync(join(root, 'src', 'assets'), { recursive: true });
  copyFileSync('src/assets/articles/_starter/1.svg', join(root, 'src', 'assets', 'drawing.svg'));
  writeFileSync(
    join(root, 'astro.config.mjs'),
    "import mdx from '@astrojs/mdx';\nexport default { integrations: [mdx()] };\n",
  );
  writeFileSync(
    join(root, 'src', 'content.config.ts'),
    "export { collections } from '../../../src/content.config.ts';\n",
  );
  writeFileSync(
    join(root, 'src', 'content', 'blog', 'water-loop.mdx'),
    `---\n${frontMatter}\n---\n\nThe loop is ready.\n`,
  );
  const result = spawnSync(process.execPath, [astro, 'sync', '--root', root], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

const fields = (omit: string[] = []) =>
  Object.entries(good)
    .filter(([key]) => !omit.includes(key))
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('content schema', () => {
  test('accepts a complete article', () => {
    const { status, output } = syncWith(
      `${fields()}\n${images((i) => `\n    alt: 'Drawing number ${i} of the water loop'`)}`,
    );
    expect(output).not.toMatch(/InvalidContentEntryDataError/);
    expect(status).toBe(0);
  }, 120_000);

  test('refuses an article without a title, naming the file and the field', () => {
    const { status, output } = syncWith(
      `${fields(['title'])}\n${images((i) => `\n    alt: 'Drawing number ${i} of the water loop'`)}`,
    );
    expect(status).not.toBe(0);
    expect(output).toContain('water-loop');
    expect(output).toMatch(/\btitle\b/);
  }, 120_000);

  test('refuses an image without alt text, naming the file and the field', () => {
    const { status, output } = syncWith(
      `${fields()}\n${images((i) => (i === 2 ? '' : `\n    alt: 'Drawing number ${i} of the water loop'`))}`,
    );
    expect(status).not.toBe(0);
    expect(output).toContain('water-loop');
    expect(output).toMatch(/images\.1\.alt|images\[1\]\.alt/);
  }, 120_000);
});
