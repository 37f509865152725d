/**
 * The social-cards gate (scripts/lib/dist-checks/social-cards.ts) on a small built site: the good one passes,
 * and each planted fault fails with a message naming the page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readSite } from '../../scripts/lib/dist-checks/site.ts';
import { checkSocialCards, pngSize } from '../../scripts/lib/dist-checks/social-cards.ts';

const origin = 'https://www.example.test';
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** The bytes a reader of the IHDR chunk needs, then a marker that makes each file's content its own. */
const png = (width: number, height: number, marker: string) => {
  const head = Buffer.alloc(24);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return Buffer.concat([head, Buffer.from(marker)]);
};
const page = (image: string | null, extra = '') =>
  `<!DOCTYPE html><html><head>${image === null ? '' : `<meta property="og:image" content="${origin}${image}">`}` +
  `<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">` +
  `<meta property="og:image:alt" content="A card"><meta name="twitter:card" content="summary_large_image">${extra}</head><body></body></html>`;

function check(overrides: Record<string, string | Buffer | null> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'korvel-cards-'));
  roots.push(root);
  const files = {
    'index.html': page('/og/home.png'),
    'pharma/index.html': page('/og/pharma.png'),
    'admin/index.html': page(null),
    'og/home.png': png(1200, 630, 'home'),
    'og/pharma.png': png(1200, 630, 'pharma'),
    ...overrides,
  };
  for (const [file, content] of Object.entries(files)) {
    if (content === null) continue;
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
  return checkSocialCards(readSite(root), { origin, isIndexable: (path) => path !== '/admin' }).map(
    (p) => `${p.page} ${p.message}`,
  );
}

describe('social-cards gate', () => {
  test('passes a site where every indexable page has its own 1200×630 card', () => {
    expect(check()).toEqual([]);
  });
  test('fails a page without og:image', () => {
    expect(check({ 'pharma/index.html': page(null) })).toEqual(['/pharma has no og:image']);
  });
  test('fails a card that is not in the build', () => {
    expect(check({ 'og/pharma.png': null })).toEqual([
      `/pharma og:image ${origin}/og/pharma.png is not in the build`,
    ]);
  });
  test('fails a card of the wrong size', () => {
    expect(check({ 'og/pharma.png': png(1200, 900, 'pharma') })).toEqual([
      `/pharma og:image ${origin}/og/pharma.png is 1200×900, not 1200×630`,
    ]);
  });
  test('fails two pages sharing one card', () => {
    expect(check({ 'pharma/index.html': page('/og/home.png') })).toEqual([
      `/pharma og:image ${origin}/og/home.png is the same card as /'s`,
    ]);
  });
  test('fails two cards with the same content', () => {
    expect(check({ 'og/pharma.png': png(1200, 630, 'home') })).toEqual([
      `/pharma og:image ${origin}/og/pharma.png is the same card as /'s`,
    ]);
  });
  test('fails a page whose twitter:card is not the large image', () => {
    const html = page('/og/pharma.png').replace('summary_large_image', 'summary');
    expect(check({ 'pharma/index.html': html })).toEqual(['/pharma twitter:card is not summary_large_image']);
  });
});

describe('pngSize', () => {
  test('reads width and height from the IHDR chunk', () => {
    expect(pngSize(png(1200, 630, ''))).toEqual({ width: 1200, height: 630 });
  });
  test('returns undefined for bytes that are not a PNG', () => {
    expect(pngSize(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });
});
