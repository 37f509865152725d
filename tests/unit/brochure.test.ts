/**
 * The brochure generator (scripts/lib/brochure) run on the real content into a temporary directory: a real
 * PDF of 6–8 pages whose text holds the divisions and the contact details, identical bytes for identical
 * content, pages poppler can render, and a tagged structure that poppler reads in order.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import PDFDocument from 'pdfkit';
import { loadBrochureContent } from '../../scripts/lib/brochure/content.ts';
import { FontBook } from '../../scripts/lib/brochure/fonts.ts';
import { writeBrochure } from '../../scripts/lib/brochure/index.ts';
import { renderBrochure } from '../../scripts/lib/brochure/render.ts';
import { DIVISIONS } from '../../src/content/constants.ts';
import { brochure, brochures, formatFileSize, pdfFacts } from '../../src/lib/brochure.ts';
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
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** poppler-utils (pdfinfo, pdftotext, pdftoppm); CI and the dev image have them. */
const poppler = spawnSync('pdftoppm', ['-v']).error === undefined;
const popplerOut = (tool: string, ...args: string[]) => {
  const result = spawnSync(tool, [...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool}: ${result.stderr}`);
  return result.stdout;
};
const words = (text: string) => (text.toLowerCase().match(/\p{L}+/gu) ?? []).join(' ');

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
    // ć is Latin Extended: it must print in Plex and extract as the letter, inside the whole word.
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

  // A whole second brochure (fonts embedded, seven pages): seconds on a busy machine, not milliseconds.
  test('comes out byte for byte the same from the same content', { timeout: 30_000 }, async () => {
    const again = await writeBrochure(root, join(work, 'again.pdf'));
    expect(Buffer.compare(readFileSync(again.file), Buffer.from(pdf))).toBe(0);
  });

  test.skipIf(!poppler)('renders every page with pdftoppm', () => {
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

describe('the brochure for assistive technology', () => {
  const file = () => join(work, 'brochure.pdf');
  const titles = async () => {
    const { t } = await loadBrochureContent(root);
    return {
      document: t('meta.title', { name: site.displayName }),
      h1: t('cover.title'),
      h2: ['who', 'services', 'divisions', 'references', 'method', 'contact'].map((page) =>
        t(`${page}.title`),
      ),
    };
  };

  test.skipIf(!poppler)('is tagged and carries its title, author and subject', async () => {
    const info = popplerOut('pdfinfo', file());
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toContain(`Title:           ${(await titles()).document}\n`);
    expect(info).toContain(`Author:          ${site.legalName}\n`);
    expect(info).toMatch(/^Subject:\s+\S/m);
  });

  test('declares British English and asks the viewer to show the title, not the file name', () => {
    const source = Buffer.from(pdf).toString('latin1');
    expect(source).toMatch(/\/Type \/Catalog[^>]*\/Lang \(en-GB\)/);
    expect(source).toMatch(/\/DisplayDocTitle true/);
  });

  test.skipIf(!poppler)(
    'reads as text from the title on: company name, then "company brochure"',
    async () => {
      const text = words(popplerOut('pdftotext', file(), '-'));
      expect(text.startsWith(words((await titles()).document))).toBe(true);
    },
  );

  test.skipIf(!poppler)('gives the cover title and the page titles in reading order', async () => {
    const { h1, h2 } = await titles();
    const text = popplerOut('pdftotext', file(), '-').replace(/\s+/g, ' ');
    const positions = [h1, ...h2].map((title) => text.indexOf(title));
    expect(
      positions.every((at) => at >= 0),
      positions.join(', '),
    ).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  test.skipIf(!poppler)('tags one H1, an H2 per page and H3s below them, skipping no level', async () => {
    const { h1, h2 } = await titles();
    const tree = popplerOut('pdfinfo', '-struct-text', file()).split('\n');
    const headings = tree.flatMap((line, i) => {
      const level = /^\s*H([1-6]) /.exec(line)?.[1];
      const text = tree.slice(i + 1).find((next) => next.includes('"'));
      return level ? [{ level: Number(level), text: /"(.*)"/.exec(text ?? '')?.[1] }] : [];
    });
    expect(headings.filter((h) => h.level < 3)).toEqual([
      { level: 1, text: h1 },
      ...h2.map((text) => ({ level: 2, text })),
    ]);
    expect(headings.filter((h) => h.level === 3).length).toBeGreaterThan(20);
    headings.forEach((h, i) =>
      expect(h.level - (headings[i - 1]?.level ?? 0), h.text).toBeLessThanOrEqual(1),
    );
  });

  test('gives every figure, the logo and the cover drawing, alt text', () => {
    const source = Buffer.from(pdf).toString('latin1');
    const figures = source.match(/\/S \/Figure\n[^]*?\n>>/g) ?? [];
    expect(figures.length).toBeGreaterThanOrEqual(3);
    for (const figure of figures) expect(figure).toMatch(/\/Alt \(.{10,}\)/);
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

/**
 * The German brochure: the same generator on the German copy (src/i18n/locales/de/brochure.json) and the
 * German twins of the content where they exist, tagged as German, linking the /de pages.
 */
describe('the German brochure', () => {
  const german = () => join(work, 'brochure-de.pdf');
  const copy = JSON.parse(readFileSync('src/i18n/locales/de/brochure.json', 'utf8')) as {
    meta: { title: string };
    cover: { title: string; kicker: string };
    services: { title: string };
    contact: { title: string };
  };
  let bytes: Uint8Array;
  beforeAll(async () => {
    const result = await writeBrochure(root, german(), { lang: 'de' });
    bytes = readFileSync(result.file);
    expect(result.pages).toBe(pages);
  }, 240_000);

  test('is served beside the English one under its own name', () => {
    expect(brochures.de).toEqual({
      href: `/${site.slug}-brochure-de.pdf`,
      fileName: `${site.name}-brochure-de.pdf`,
    });
    expect(brochures.en).toBe(brochure);
  });

  test('declares German as its document language and shows its title', () => {
    const source = Buffer.from(bytes).toString('latin1');
    expect(source).toMatch(/\/Type \/Catalog[^>]*\/Lang \(de-DE\)/);
    expect(source).toMatch(/\/DisplayDocTitle true/);
  });

  test.skipIf(!poppler)('carries the German title and tags the German headings', () => {
    const info = popplerOut('pdfinfo', german());
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toContain(`Title:           ${copy.meta.title.replace('{{name}}', site.displayName)}\n`);
    const tree = popplerOut('pdfinfo', '-struct-text', german());
    expect(tree).toMatch(/^\s*H1 /m);
    const text = popplerOut('pdftotext', german(), '-').replace(/\s+/g, ' ');
    for (const title of [copy.cover.title, copy.services.title, copy.contact.title])
      expect(text, title).toContain(title);
    expect(text).toContain('Belgrad, Serbien');
    // German dates: the edition names the month in German.
    expect(text).toMatch(
      /AUSGABE (JANUAR|FEBRUAR|MÄRZ|APRIL|MAI|JUNI|JULI|AUGUST|SEPTEMBER|OKTOBER|NOVEMBER|DEZEMBER) \d{4}/,
    );
  });

  test('links the German pages of the site', () => {
    const source = Buffer.from(bytes).toString('latin1');
    expect(source).toContain(`(${site.url}/de/contact#book-a-meeting)`);
    expect(source).toContain(`(${site.url}/de/our-references)`);
    expect(source).not.toContain(`(${site.url}/contact#book-a-meeting)`);
  });

  test('has exactly the keys of the English brochure copy, none empty', () => {
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
          : typeof value === 'string' && value.trim() !== '';
    const english = JSON.parse(readFileSync('src/i18n/locales/en/brochure.json', 'utf8')) as unknown;
    expect(shape(copy)).toEqual(shape(english));
  });
});

describe('FontBook', () => {
  const book = () => new FontBook(new PDFDocument({ autoFirstPage: false }));

  test("keeps a Latin Extended name in one run of the style's face", () => {
    expect(book().runs('Jelena Marković', 'sans', 400)).toEqual([
      { font: 'sans-400', text: 'Jelena Marković' },
    ]);
  });

  test('sets the Greek that Plex Mono lacks in Plex Sans of the same weight', () => {
    expect(book().runs('10 MΩ·cm', 'mono', 500)).toEqual([
      { font: 'mono-500', text: '10 M' },
      { font: 'sans-500', text: 'Ω' },
      { font: 'mono-500', text: '·cm' },
    ]);
  });

  test('names the code point no Plex face covers', () => {
    expect(() => book().runs('漢', 'sans', 400)).toThrow(/U\+6F22/);
  });
});
