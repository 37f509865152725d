/**
 * A bad article or sector entry must stop the build with a message naming the file and the field. Runs
 * `astro sync` (the content step of every build) on a throwaway project that uses the real src/content.config.ts.
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

function syncWith(
  frontMatter: string,
  { collection = 'blog', file = 'water-loop' } = {},
): { status: number | null; output: string } {
  rmSync(root, { recursive: true, force: true });
  for (const dir of ['blog', 'news', 'sectors'])
    mkdirSync(join(root, 'src', 'content', dir), { recursive: true });
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
    join(root, 'src', 'content', collection, `${file}.mdx`),
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

const sector = {
  title: "'Pharmaceutical and life sciences plants'",
  eyebrow: "'Pharma & life sciences'",
  intro:
    "'Korvel designs new and upgraded plants for sterile injectables, oral solid dosage, biologics and APIs, from user requirements to a qualified facility.'",
  summary:
    "'GMP facilities for sterile products, oral solid dosage, biologics and APIs, from URS to a qualified plant.'",
  order: '1',
  highlights:
    "['EU GMP Annex 1 cleanroom concepts', 'PW, WFI and clean steam to ASME BPE', 'DQ, IQ, OQ and PQ to Annex 15', 'CSV to GAMP 5 and Annex 11']",
  image:
    "\n  src: '../../assets/drawing.svg'\n  alt: 'Isometric drawing of a sterile fill-finish suite cut open at wall height'",
};
const sectorWith = (changes: Record<string, string | undefined>) =>
  Object.entries({ ...sector, ...changes })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');

describe('sector schema', () => {
  test('accepts a complete sector', () => {
    const { status, output } = syncWith(sectorWith({}), { collection: 'sectors', file: 'pharma' });
    expect(output).not.toMatch(/InvalidContentEntryDataError/);
    expect(status).toBe(0);
  }, 120_000);

  test('refuses a sector without a summary, naming the file and the field', () => {
    const { status, output } = syncWith(sectorWith({ summary: undefined }), {
      collection: 'sectors',
      file: 'pharma',
    });
    expect(status).not.toBe(0);
    expect(output).toContain('pharma');
    expect(output).toMatch(/\bsummary\b/);
  }, 120_000);

  test('refuses a misspelt field instead of ignoring it, naming the file and the field', () => {
    const { status, output } = syncWith(sectorWith({ highlight: "['One fact that is long enough']" }), {
      collection: 'sectors',
      file: 'pharma',
    });
    expect(status).not.toBe(0);
    expect(output).toContain('pharma');
    expect(output).toMatch(/\bhighlight\b/);
  }, 120_000);

  test('refuses a drawing without alt text, naming the file and the field', () => {
    const { status, output } = syncWith(sectorWith({ image: "\n  src: '../../assets/drawing.svg'" }), {
      collection: 'sectors',
      file: 'pharma',
    });
    expect(status).not.toBe(0);
    expect(output).toContain('pharma');
    expect(output).toMatch(/image\.alt/);
  }, 120_000);
});
