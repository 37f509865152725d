import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, test } from 'vitest';
import { minifyDrawing, minifyDrawings } from '../../scripts/lib/minify-drawings.ts';

/** The drawing rasterised by librsvg (sharp), a renderer of its own, at `width` pixels. */
const raster = (svg: string, width: number) =>
  sharp(Buffer.from(svg)).resize({ width }).flatten({ background: '#ffffff' }).raw().toBuffer();

/** The share of pixels whose colour differs by more than `tolerance` in any channel. */
function differing(a: Buffer, b: Buffer, tolerance = 16): number {
  expect(a.byteLength).toBe(b.byteLength);
  let pixels = 0;
  for (let i = 0; i < a.length; i += 3)
    if ([0, 1, 2].some((c) => Math.abs(a[i + c]! - b[i + c]!) > tolerance)) pixels += 1;
  return pixels / (a.length / 3);
}

describe('minifyDrawing', () => {
  for (const drawing of ['src/assets/sectors/pharma.svg', 'src/assets/initiatives/academy.svg']) {
    test(`${drawing} comes out at least a tenth smaller and draws the same pixels`, async () => {
      const source = readFileSync(drawing, 'utf8');
      const minified = minifyDrawing(source);
      expect(Buffer.byteLength(minified)).toBeLessThan(Buffer.byteLength(source) * 0.9);
      // It still scales as the page asks: the viewBox stays.
      expect(minified).toMatch(/^<svg[^>]* viewBox="[^"]+"/);
      // Not one pixel further off than rounding (one small path left out moves 0.03 % of them).
      const [before, after] = await Promise.all([raster(source, 800), raster(minified, 800)]);
      expect(differing(before, after)).toBe(0);
    });
  }

  test('a drawing SVGO cannot shrink is left as it was', () => {
    const tiny = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(minifyDrawing(tiny)).toBe(tiny);
  });
});

describe('minifyDrawings', () => {
  const folders: string[] = [];
  afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  /** A built site with two drawings and a script in _astro. */
  function builtSite(): string {
    const dist = mkdtempSync(join(tmpdir(), 'korvel-drawings-'));
    folders.push(dist);
    mkdirSync(join(dist, '_astro'));
    writeFileSync(join(dist, '_astro', 'pharma.DRJ2Hzhj.svg'), readFileSync('src/assets/sectors/pharma.svg'));
    writeFileSync(join(dist, '_astro', '1.D3IZHapL.svg'), readFileSync('src/assets/thanks/1.svg'));
    writeFileSync(join(dist, '_astro', 'shell.js'), 'console.log("<svg>")');
    return dist;
  }

  test('rewrites each drawing in place, leaves other files alone, and a second build reads the cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'korvel-svgo-cache-'));
    folders.push(cache);
    const first = builtSite();
    const sources = ['pharma.DRJ2Hzhj.svg', '1.D3IZHapL.svg'].map((name) =>
      readFileSync(join(first, '_astro', name), 'utf8'),
    );

    const made = await minifyDrawings(first, cache);
    expect(made).toMatchObject({ files: 2, cached: 0 });
    expect(made.after).toBeLessThan(made.before);
    expect(readFileSync(join(first, '_astro', 'pharma.DRJ2Hzhj.svg'), 'utf8')).toBe(
      minifyDrawing(sources[0]!),
    );
    expect(readFileSync(join(first, '_astro', '1.D3IZHapL.svg'), 'utf8')).toBe(minifyDrawing(sources[1]!));
    expect(readFileSync(join(first, '_astro', 'shell.js'), 'utf8')).toBe('console.log("<svg>")');

    const second = builtSite();
    const again = await minifyDrawings(second, cache);
    expect(again).toEqual({ ...made, cached: 2 });
    expect(readFileSync(join(second, '_astro', 'pharma.DRJ2Hzhj.svg'), 'utf8')).toBe(
      readFileSync(join(first, '_astro', 'pharma.DRJ2Hzhj.svg'), 'utf8'),
    );
  });
});
