/**
 * The site's web fonts, cut from IBM's complete Plex files into src/generated/fonts/ after `npm install` and
 * before every dev start and build: one variable IBM Plex Sans (weights 400–700, normal width) and IBM Plex
 * Mono 400 and 500, each holding exactly the characters in WEB_FONT_RANGES and no hinting. A first visit to an
 * article with a Serbian byline used to fetch six @fontsource subsets (Latin, Latin Extended and Greek, about
 * 140 KB); these three files are about 68 KB together. The cut is skipped when the sources, the ranges and the
 * options are those of the files already written (a stamp holds their hash).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import subsetFont from 'subset-font';

export const WEB_FONT_DIR = 'src/generated/fonts';

/**
 * Every character the site may set in its own fonts: Basic Latin, Latin-1 and Latin Extended-A (Serbian and
 * other European names), general punctuation with the narrow no-break space of "30 %" and "5 m", super- and
 * subscripts (m², CO₂), the euro sign, arrows, the minus and relation signs, and the Greek letters that
 * engineering copy uses (Δp, Ω, μ). `npm run check:dist -- fonts` fails on a page character outside them.
 */
export const WEB_FONT_RANGES: readonly (readonly [number, number])[] = [
  [0x0020, 0x007e],
  [0x00a0, 0x017f],
  [0x02c6, 0x02c6],
  [0x02da, 0x02da],
  [0x02dc, 0x02dc],
  [0x0394, 0x0394],
  [0x03a9, 0x03a9],
  [0x03bc, 0x03bc],
  [0x2000, 0x206f],
  [0x2070, 0x209f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2126, 0x2126],
  [0x2190, 0x2193],
  [0x2212, 0x2212],
  [0x2215, 0x2215],
  [0x2248, 0x2248],
  [0x2260, 0x2260],
  [0x2264, 0x2265],
];

export const inWebFonts = (codePoint: number) =>
  WEB_FONT_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);

interface WebFont {
  file: string;
  /** A file of an installed package, resolved from the project root. */
  source: string;
  /** Axes to pin or narrow in a variable font (hb-subset instancing). */
  axes?: Record<string, number | { min: number; max: number }>;
}

export const WEB_FONTS: readonly WebFont[] = [
  {
    file: 'plex-sans.woff2',
    source: '@ibm/plex-sans-variable/fonts/complete/ttf/IBM Plex Sans Var-Roman.ttf',
    // The styles use weights 400, 500, 600 and 700 and never a condensed width.
    axes: { wght: { min: 400, max: 700 }, wdth: 100 },
  },
  { file: 'plex-mono-400.woff2', source: '@ibm/plex-mono/fonts/complete/woff2/IBMPlexMono-Regular.woff2' },
  { file: 'plex-mono-500.woff2', source: '@ibm/plex-mono/fonts/complete/woff2/IBMPlexMono-Medium.woff2' },
];

const STAMP = '.stamp';

function rangeText(): string {
  let text = '';
  for (const [from, to] of WEB_FONT_RANGES)
    for (let codePoint = from; codePoint <= to; codePoint += 1) text += String.fromCodePoint(codePoint);
  return text;
}

/** Writes the fonts under `root`; returns how many were cut (0 when the stamp says they are current). */
export async function writeWebFonts(root: string): Promise<number> {
  const require = createRequire(join(root, 'package.json'));
  const dir = join(root, WEB_FONT_DIR);
  const sources = WEB_FONTS.map((font) => readFileSync(require.resolve(font.source)));
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ ranges: WEB_FONT_RANGES, fonts: WEB_FONTS }));
  for (const source of sources) hash.update(source);
  const stamp = hash.digest('hex');
  const stampFile = join(dir, STAMP);
  const current =
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp &&
    WEB_FONTS.every((font) => existsSync(join(dir, font.file)));
  if (current) return 0;

  mkdirSync(dir, { recursive: true });
  const text = rangeText();
  await Promise.all(
    WEB_FONTS.map(async (font, index) => {
      const subset = await subsetFont(sources[index]!, text, {
        targetFormat: 'woff2',
        noHinting: true,
        ...(font.axes ? { variationAxes: font.axes } : {}),
      });
      writeFileSync(join(dir, font.file), subset);
    }),
  );
  writeFileSync(stampFile, stamp);
  return WEB_FONTS.length;
}
