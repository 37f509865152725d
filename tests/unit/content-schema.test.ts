/**
 * A bad article, sector, team entry or reference must stop the build with a message naming the file and the field. Runs
 * `astro sync` (the content step of every build) on a throwaway project that uses the real
 * src/content.config.ts. Each test has a project of its own, so the syncs run side by side: one after another
 * they were half of the unit tests' time (issue 26).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

const fixtures = join(process.cwd(), 'test-results', 'content-fixture');
let made = 0;
const astro = join(process.cwd(), 'node_modules', 'astro', 'bin', 'astro.mjs');

const good = {
  title: "'Commissioning a purified-water loop'",
  summary:
    "'How we flush, passivate and sample a new purified-water loop before the performance qualification starts, and what usually goes wrong.'",
  date: '2026-10-01',
  author: "'Ana Ilić'",
  discipline: "'Utilities'",
  divisions: '[pharma]',
  tags: '[utilities]',
};
const images = (alt: (i: number) => string) =>
  ['images:', ...[1, 2, 3].map((i) => `  - src: '../../assets/drawing.svg'${alt(i)}`)].join('\n');

type Synced = { status: number | null; output: string };

/** A fresh fixture project with empty collections and the real content config; returns its root. */
function prepareFixture(): string {
  made += 1;
  const root = join(fixtures, String(made));
  rmSync(root, { recursive: true, force: true });
  for (const dir of ['blog', 'news', 'references', 'sectors']) {
    mkdirSync(join(root, 'src', 'content', dir), { recursive: true });
  }
  mkdirSync(join(root, 'src', 'assets'), { recursive: true });
  copyFileSync('src/assets/articles/_starter/1.svg', join(root, 'src', 'assets', 'drawing.svg'));
  writeFileSync(
    join(root, 'astro.config.mjs'),
    "import mdx from '@astrojs/mdx';\nexport default { integrations: [mdx()] };\n",
  );
  writeFileSync(
    join(root, 'src', 'content.config.ts'),
    "export { collections } from '../../../../src/content.config.ts';\n",
  );
  return root;
}

function runSync(root: string): Promise<Synced> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [astro, 'sync', '--root', root], {
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    // Astro bolds field names even with FORCE_COLOR=0; strip the escapes so `\bfield\b` can match.
    child.on('close', (status) => resolve({ status, output: stripVTControlCharacters(output) }));
  });
}

function syncWith(frontMatter: string): Promise<Synced> {
  const root = prepareFixture();
  writeFileSync(
    join(root, 'src', 'content', 'blog', 'water-loop.mdx'),
    `---\n${frontMatter}\n---\n\nThe loop is ready.\n`,
  );
  return runSync(root);
}

const person: Record<string, string> = {
  name: "'Ana Ilić'",
  role: "'Lead utilities engineer'",
  discipline: 'process',
  group: 'process',
  divisions: '[pharma, food]',
  joined: '2016',
  inIndustrySince: '2009',
  bio: "'Designs purified water and clean steam systems from the generation skid to the last point of use, and reviews every isometric for dead legs, slopes and drainability before it is issued.'",
  portrait:
    "\n  src: '../../assets/team/ana-ilic.svg'\n  alt: 'Line drawing of Ana Ilić with short hair and round glasses.'",
  order: '1',
};

/** Syncs one team entry, src/content/team/ana-ilic.yaml, built from `person` with `changes` applied. */
function syncTeamWith(changes: Record<string, string | undefined>): Promise<Synced> {
  const root = prepareFixture();
  mkdirSync(join(root, 'src', 'content', 'team'), { recursive: true });
  mkdirSync(join(root, 'src', 'assets', 'team'), { recursive: true });
  copyFileSync('src/assets/team/jelena-markovic.svg', join(root, 'src', 'assets', 'team', 'ana-ilic.svg'));
  copyFileSync('public/apple-touch-icon.png', join(root, 'src', 'assets', 'team', 'ana-ilic.png'));
  const entry = { ...person, ...changes };
  const yaml = Object.entries(entry)
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
  writeFileSync(join(root, 'src', 'content', 'team', 'ana-ilic.yaml'), `${yaml}\n`);
  return runSync(root);
}

const fields = (omit: string[] = []) =>
  Object.entries(good)
    .filter(([key]) => !omit.includes(key))
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');

afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

describe.concurrent('content schema', () => {
  test('accepts a complete article', async () => {
    const { status, output } = await syncWith(
      `${fields()}\n${images((i) => `\n    alt: 'Drawing number ${i} of the water loop'`)}`,
    );
    expect(output).not.toMatch(/InvalidContentEntryDataError/);
    expect(status).toBe(0);
  }, 240_000);

  test('refuses an article without a title, naming the file and the field', async () => {
    const { status, output } = await syncWith(
      `${fields(['title'])}\n${images((i) => `\n    alt: 'Drawing number ${i} of the water loop'`)}`,
    );
    expect(status).not.toBe(0);
    expect(output).toContain('water-loop');
    expect(output).toMatch(/\btitle\b/);
  }, 240_000);

  test('refuses an image without alt text, naming the file and the field', async () => {
    const { status, output } = await syncWith(
      `${fields()}\n${images((i) => (i === 2 ? '' : `\n    alt: 'Drawing number ${i} of the water loop'`))}`,
    );
    expect(status).not.toBe(0);
    expect(output).toContain('water-loop');
    expect(output).toMatch(/images\.1\.alt|images\[1\]\.alt/);
  }, 240_000);
});

describe.concurrent('team schema', () => {
  test('accepts a complete team entry', async () => {
    const { status, output } = await syncTeamWith({});
    expect(output).not.toMatch(/InvalidContentEntryDataError/);
    expect(status).toBe(0);
  }, 240_000);

  test('refuses an entry without a discipline, naming the file and the field', async () => {
    const { status, output } = await syncTeamWith({ discipline: undefined });
    expect(status).not.toBe(0);
    expect(output).toContain('ana-ilic');
    expect(output).toMatch(/\bdiscipline\b/);
  }, 240_000);

  test('refuses a portrait without alt text, naming the file and the field', async () => {
    const { status, output } = await syncTeamWith({
      portrait: "\n  src: '../../assets/team/ana-ilic.svg'",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('ana-ilic');
    expect(output).toMatch(/portrait\.alt/);
  }, 240_000);

  test('refuses a photograph as a portrait, naming the file and the field', async () => {
    const { status, output } = await syncTeamWith({
      portrait:
        "\n  src: '../../assets/team/ana-ilic.png'\n  alt: 'Photograph of Ana Ilić at her desk in the office.'",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('ana-ilic');
    expect(output).toMatch(/portrait\.src/);
    expect(output).toContain('Portraits are drawn SVG line art');
  }, 240_000);
});

/** Syncs the fixture holding only the given content files (paths under src/content). */
function syncFiles(files: Record<string, string>): Promise<Synced> {
  const root = prepareFixture();
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, 'src', 'content', path), text);
  return runSync(root);
}

/** A reference entry as an editor writes it: the YAML of src/content/references/<slug>.yaml. */
const reference = {
  title: "'Purified water loop for a tablet plant'",
  description:
    "'Generation and distribution of purified water for a solid-dose plant: double-pass RO, EDI, a hot sanitised stainless loop and sampling points.'",
  division: 'pharma',
  year: '2021',
  durationMonths: '9',
  services: '[basic-design, detailed-design]',
  outcome: "'Loop released after a three-phase PQ with no excursions'",
  client: "'A generic medicines manufacturer'",
  country: "'Serbia'",
  deliveredUnderBrand: 'true',
  challenge:
    "'The plant''s purified water came from a single-pass reverse osmosis unit with an ambient loop, and the microbial counts at the far points of use drifted towards the action limit every summer. The client wanted a system that meets the Ph. Eur. limits with margin and can be sanitised with hot water instead of chemicals.'",
  approach:
    "\n  - 'Basic design replaced the single pass with double-pass reverse osmosis and electrodeionisation, sized for the peak demand of the granulation suite plus a quarter.'\n  - 'The new loop runs in 316L stainless steel, sloped to drain and sanitised at 80 °C once a week, with a sampling valve at every point of use.'",
  result:
    "'The loop was released after a three-phase qualification with no excursion, and summer counts now stay a decade below the alert limit. Chemical sanitisation, and the downtime it cost, stopped.'",
  role: "'Basic and detailed designer'",
  scope: "['Purified water generation', 'Hot-sanitised distribution loop']",
  capacity: "'8 m³/h generation; 12 points of use'",
  investment: "'under-5'",
  standards: "['Ph. Eur. monograph 0008 (Purified water)', 'ASME BPE']",
  status: 'in-operation',
};
const referenceYaml = (changes: Record<string, string | undefined>) =>
  Object.entries({ ...reference, ...changes })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');

describe.concurrent('reference schema', () => {
  test('accepts a complete reference', async () => {
    const { status, output } = await syncFiles({ 'references/tablet-plant-water.yaml': referenceYaml({}) });
    expect(output).not.toMatch(/InvalidContentEntryDataError/);
    expect(status).toBe(0);
  }, 240_000);

  test('refuses a reference without a division, naming the file and the field', async () => {
    const { status, output } = await syncFiles({
      'references/tablet-plant-water.yaml': referenceYaml({ division: undefined }),
    });
    expect(status).not.toBe(0);
    expect(output).toContain('references → tablet-plant-water');
    expect(output).toMatch(/^\s*division\W/m);
  }, 240_000);

  test('refuses a reference that links more than two articles, naming the file and the field', async () => {
    const { status, output } = await syncFiles({
      'references/tablet-plant-water.yaml': referenceYaml({ articles: '[water-loop, closed-systems, gmp]' }),
    });
    expect(status).not.toBe(0);
    expect(output).toContain('references → tablet-plant-water');
    expect(output).toMatch(/^\s*articles\W/m);
  }, 240_000);

  test('refuses a reference without its case study or with an unknown status, naming the file and the field', async () => {
    const { status, output } = await syncFiles({
      'references/tablet-plant-water.yaml': referenceYaml({ challenge: undefined, status: 'mothballed' }),
    });
    expect(status).not.toBe(0);
    expect(output).toContain('references → tablet-plant-water');
    expect(output).toMatch(/^\s*challenge\W/m);
    expect(output).toMatch(/^\s*status\W/m);
  }, 240_000);

  test('refuses a reference whose year is not a number, naming the file and the field', async () => {
    const { status, output } = await syncFiles({
      'references/tablet-plant-water.yaml': referenceYaml({ year: "'twenty-one'" }),
    });
    expect(status).not.toBe(0);
    expect(output).toContain('references → tablet-plant-water');
    expect(output).toMatch(/^\s*year\W/m);
  }, 240_000);
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
const sectorMdx = (changes: Record<string, string | undefined>) =>
  `---\n${sectorFrontMatter(changes)}\n---\n\nThe suite is ready.\n`;
const sectorFrontMatter = (changes: Record<string, string | undefined>) =>
  Object.entries({ ...sector, ...changes })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');

describe.concurrent('sector schema', () => {
  test('accepts a complete sector', async () => {
    const { status, output } = await syncFiles({ 'sectors/pharma.mdx': sectorMdx({}) });
    expect(output).not.toMatch(/InvalidContentEntryDataError/);
    expect(status).toBe(0);
  }, 240_000);

  test('refuses a sector without a summary, naming the file and the field', async () => {
    const { status, output } = await syncFiles({ 'sectors/pharma.mdx': sectorMdx({ summary: undefined }) });
    expect(status).not.toBe(0);
    expect(output).toContain('pharma');
    expect(output).toMatch(/\bsummary\b/);
  }, 240_000);

  test('refuses a misspelt field instead of ignoring it, naming the file and the field', async () => {
    const { status, output } = await syncFiles({
      'sectors/pharma.mdx': sectorMdx({ highlight: "['One fact that is long enough']" }),
    });
    expect(status).not.toBe(0);
    expect(output).toContain('pharma');
    expect(output).toMatch(/\bhighlight\b/);
  }, 240_000);

  test('refuses a drawing without alt text, naming the file and the field', async () => {
    const { status, output } = await syncFiles({
      'sectors/pharma.mdx': sectorMdx({ image: "\n  src: '../../assets/drawing.svg'" }),
    });
    expect(status).not.toBe(0);
    expect(output).toContain('pharma');
    expect(output).toMatch(/image\.alt/);
  }, 240_000);
});
