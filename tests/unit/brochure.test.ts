/**
 * The brochure generator (scripts/lib/brochure) run on the real content into a temporary directory: a real
 * PDF of 6–8 pages whose text holds the divisions and the contact details, identical bytes for identical
 * content, and pages poppler can render.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadBrochureContent } from '../../scripts/lib/brochure/content.ts';
import { writeBrochure } from '../../scripts/lib/brochure/index.ts';
import { renderBrochure } from '../../scripts/lib/brochure/render.ts';
import { staticInstance } from '../../scripts/lib/fonts/instance.ts';
import { woff2ToTtf } from '../../scripts/lib/fonts/woff2.ts';
import { DIVISIONS } from '../../src/content/constants.ts';
import { brochure, formatFileSize, pdfFacts } from '../../src/lib/brochure.ts';
import { site } from '../../src/site.config.ts';
import { pdfPageTexts, pdfText } from './support/pdf-text.ts';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'brochure-'));
let pdf: Uint8Array;
let pages: number;

beforeAll(async () => {
  const result = await writeBrochure(root, join(work, 'brochure.pdf'));
  pdf = readFileSync(result.file);
  pages = result.pages;
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const frontMatter = (file: string) =>
  parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))![1]!) as Record<string, unknown>;

describe('the brochure PDF', () => {
  test('is a PDF of six to eight pages', () => {
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(pages).toBeGreaterThanOrEqual(6);
    expect(pages).toBeLessThanOrEqual(8);
    expect(pdfPageTexts(pdf)).toHaveLength(pages);
  });

  test('names all six divisions as their sector pages do', () => {
    const text = pdfText(pdf);
    for (const id of DIVISIONS) {
      const data = frontMatter(`src/content/sectors/${id}.mdx`);
      const name = String(data.name ?? data.eyebrow);
      expect(text, id).toContain(name);
    }
  });

  test('gives the contact details of site.config.ts, in Plex glyphs that map back to text', () => {
    const text = pdfText(pdf);
    for (const value of [site.email, site.phone, site.registrationNumber, site.address.street]) {
      expect(text).toContain(value);
    }
    // ć comes from the latin-ext subset of the font: the run switch must keep the word whole.
    expect(text).toContain(site.contactPerson);
    expect(text).not.toContain('\uFFFD');
    expect(text).toContain('Book a 30-minute meeting');
  });

  test('quotes one reference per division with its outcome', async () => {
    const content = await loadBrochureContent(root);
    expect(content.selected.map((r) => r.division)).toEqual([...DIVISIONS]);
    const text = pdfText(pdf);
    // pdfText makes every run of white space one space, the thin space before a unit included.
    for (const reference of content.selected) expect(text).toContain(reference.outcome.replace(/\s+/g, ' '));
  });

  test('embeds every font it uses', () => {
    const source = Buffer.from(pdf).toString('latin1');
    const descriptors = source.match(/\/Type \/FontDescriptor/g) ?? [];
    const files = source.match(/\/FontFile2 \d+ 0 R/g) ?? [];
    expect(descriptors.length).toBeGreaterThan(2);
    expect(files).toHaveLength(descriptors.length);
    expect(source).not.toMatch(/\/BaseFont \/Helvetica/);
  });

  test('comes out byte for byte the same from the same content', async () => {
    const again = await writeBrochure(root, join(work, 'again.pdf'));
    expect(Buffer.compare(readFileSync(again.file), Buffer.from(pdf))).toBe(0);
  });

  const pdftoppm = spawnSync('pdftoppm', ['-v']).error === undefined;
  test.skipIf(!pdftoppm)('renders every page with pdftoppm', () => {
    const result = spawnSync('pdftoppm', [
      '-r',
      '50',
      '-png',
      join(work, 'brochure.pdf'),
      join(work, 'page'),
    ]);
    expect(result.status, result.stderr.toString()).toBe(0);
    const pngs = readdirSync(work).filter((f) => f.startsWith('page') && f.endsWith('.png'));
    expect(pngs).toHaveLength(pages);
  });
});

describe('the brochure content', () => {
  test('takes the name and summary of every division from its sector front matter', async () => {
    const content = await loadBrochureContent(root);
    for (const id of ['pharma', 'energy', 'oil-gas']) {
      const sector = frontMatter(`src/content/sectors/${id}.mdx`);
      expect(content.divisions.find((d) => d.id === id)).toMatchObject({
        name: sector.eyebrow,
        summary: sector.summary,
      });
    }
  });

  test('names the file and the field when a reference lacks its outcome', async () => {
    const fixture = join(work, 'broken');
    for (const dir of ['src/content', 'src/i18n']) {
      cpSync(join(root, dir), join(fixture, dir), { recursive: true });
    }
    const file = join(fixture, 'src/content/references/pharma-qc-laboratory.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^outcome:.*$/m, ''));
    await expect(loadBrochureContent(fixture)).rejects.toThrow(/pharma-qc-laboratory\.yaml → outcome/);
  });

  test('refuses a page whose content no longer fits instead of spilling onto another page', async () => {
    const content = await loadBrochureContent(root);
    const long = { ...content.services[0]!, text: content.services[0]!.text.repeat(8) };
    await expect(
      renderBrochure({ ...content, services: [long, ...content.services.slice(1)] }, { root }),
    ).rejects.toThrow(/"Services" page overflows/);
  });
});

describe('pdfFacts', () => {
  test('reads the page count of the page tree', () => {
    expect(pdfFacts(pdf)).toEqual({ pages, bytes: pdf.length });
  });
  test('refuses bytes that are not a PDF', () => {
    expect(() => pdfFacts(new TextEncoder().encode('<html></html>'))).toThrow();
  });
});

describe('formatFileSize', () => {
  test('kilobytes under a megabyte, megabytes with one decimal above', () => {
    expect(formatFileSize(73_432, 'en')).toBe('72 kB');
    expect(formatFileSize(2_621_440, 'en')).toBe('2.5 MB');
  });
  test('the download is named after the company, not the URL path', () => {
    expect(brochure.fileName).toBe(`${site.name}-brochure.pdf`);
    expect(brochure.href).toBe(`/${site.slug}-brochure.pdf`);
  });
});

describe('fonts for pdfkit', () => {
  // The fontkit pdfkit runs, to compare outlines as pdfkit will see them.
  const fontkit = createRequire(createRequire(import.meta.url).resolve('pdfkit'))('fontkit') as {
    create(font: Uint8Array): {
      numGlyphs: number;
      getGlyph(id: number): { path: { toSVG(): string }; advanceWidth: number };
      getVariation(axes: Record<string, number>): {
        getGlyph(id: number): { path: { toSVG(): string }; advanceWidth: number };
      };
    };
  };
  const woff2 = readFileSync(
    createRequire(import.meta.url).resolve(
      '@fontsource-variable/ibm-plex-sans/files/ibm-plex-sans-latin-wght-normal.woff2',
    ),
  );

  test('WOFF2 decoding keeps every glyph outline and advance', () => {
    const original = fontkit.create(woff2);
    const decoded = fontkit.create(woff2ToTtf(woff2));
    expect(decoded.numGlyphs).toBe(original.numGlyphs);
    for (let id = 0; id < original.numGlyphs; id++) {
      expect(decoded.getGlyph(id).path.toSVG(), `glyph ${id}`).toBe(original.getGlyph(id).path.toSVG());
      expect(decoded.getGlyph(id).advanceWidth).toBe(original.getGlyph(id).advanceWidth);
    }
  });

  test('a static instance draws the weight it was cut at', () => {
    const variable = fontkit.create(woff2ToTtf(woff2));
    const bold = fontkit.create(staticInstance(woff2ToTtf(woff2), { wght: 600 }));
    const reference = variable.getVariation({ wght: 600 });
    const regular = variable.getGlyph(40);
    expect(bold.getGlyph(40).advanceWidth).toBe(Math.round(reference.getGlyph(40).advanceWidth));
    expect(bold.getGlyph(40).path.toSVG()).not.toBe(regular.path.toSVG());
  });
});
