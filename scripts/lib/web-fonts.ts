/**
 * The site's web fonts, cut from IBM's complete Plex files into src/generated/fonts/ after `npm install` and
 * before every dev start and build: one variable IBM Plex Sans (weights 400–700, normal width) and IBM Plex
 * Mono 400 and 500, together holding exactly the characters in WEB_FONT_RANGES, without hinting. Each face is
 * cut twice (issue 38): the characters of English and German copy (CORE_RANGES), which every page fetches, and
 * the rest of WEB_FONT_RANGES (Latin Extended-A names, Greek, arrows, sub- and superscripts), which a browser
 * fetches only for a page that shows one of them, as `unicode-range` in the generated fonts.css tells it. The
 * three core files are 51 KB together, the three whole files were 68 KB. The cut is skipped when the
 * sources, the ranges and the options are those of the files already written (a stamp holds their hash).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

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

type Ranges = readonly (readonly [number, number])[];

const inRanges = (ranges: Ranges, codePoint: number) =>
  ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

export const inWebFonts = (codePoint: number) => inRanges(WEB_FONT_RANGES, codePoint);

/**
 * The core cut: Basic Latin, Latin-1 (German's umlauts and ß, the no-break space, ©, °, ×), the letters of
 * Serbian Latin (ć, č, đ, š, ž: the team's names, in bylines and on article cards across the site, 0.5 KB) and
 * the punctuation English and German copy set (thin and narrow no-break spaces, the non-breaking hyphen, dashes,
 * quotation marks of both languages, bullet, ellipsis), the euro sign, the arrow of "Read more →", and the
 * engineering signs of the electronics, energy and pharma pages and the reference list (Δ, Ω, μ, CO₂, −, ≤,
 * ≥). Every other character of WEB_FONT_RANGES is in the extended cut, which no page fetched when this was
 * written (`inCoreFonts` with the fonts gate over dist/ lists the pages that would).
 */
export const CORE_RANGES: Ranges = [
  [0x0020, 0x007e],
  [0x00a0, 0x00ff],
  [0x0106, 0x0107],
  [0x010c, 0x010d],
  [0x0110, 0x0111],
  [0x0160, 0x0161],
  [0x017d, 0x017e],
  [0x0394, 0x0394],
  [0x03a9, 0x03a9],
  [0x03bc, 0x03bc],
  [0x2009, 0x200a],
  [0x2011, 0x2011],
  [0x2013, 0x2014],
  [0x2018, 0x201a],
  [0x201c, 0x201e],
  [0x2022, 0x2022],
  [0x2026, 0x2026],
  [0x202f, 0x202f],
  [0x2082, 0x2082],
  [0x20ac, 0x20ac],
  [0x2192, 0x2192],
  [0x2212, 0x2212],
  [0x2264, 0x2265],
];

export const inCoreFonts = (codePoint: number) => inRanges(CORE_RANGES, codePoint);

interface WebFont {
  /** The file stem: `<name>.woff2` holds the core cut, `<name>-ext.woff2` the extended one. */
  name: string;
  family: string;
  /** The `font-weight` descriptor: one weight, or the range of a variable font. */
  weight: string;
  /** A file of an installed package, resolved from the project root. */
  source: string;
  /** Axes to pin or narrow in a variable font (hb-subset instancing). */
  axes?: Record<string, number | { min: number; max: number }>;
}

export const WEB_FONTS: readonly WebFont[] = [
  {
    name: 'plex-sans',
    family: 'IBM Plex Sans Variable',
    weight: '400 700',
    source: '@ibm/plex-sans-variable/fonts/complete/ttf/IBM Plex Sans Var-Roman.ttf',
    // The styles use weights 400, 500, 600 and 700 and never a condensed width.
    axes: { wght: { min: 400, max: 700 }, wdth: 100 },
  },
  {
    name: 'plex-mono-400',
    family: 'IBM Plex Mono',
    weight: '400',
    source: '@ibm/plex-mono/fonts/complete/woff2/IBMPlexMono-Regular.woff2',
  },
  {
    name: 'plex-mono-500',
    family: 'IBM Plex Mono',
    weight: '500',
    source: '@ibm/plex-mono/fonts/complete/woff2/IBMPlexMono-Medium.woff2',
  },
];

const STAMP = '.stamp';

const codePointsOf = (ranges: Ranges) =>
  ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));

/** The characters of WEB_FONT_RANGES outside the core cut, as ranges. */
export const EXTENDED_RANGES: Ranges = codePointsOf(WEB_FONT_RANGES)
  .filter((codePoint) => !inCoreFonts(codePoint))
  .reduce<[number, number][]>((ranges, codePoint) => {
    const last = ranges.at(-1);
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
    return ranges;
  }, []);

const hex = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, '0');
const unicodeRange = (ranges: Ranges) =>
  ranges.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(', ');

const face = (font: WebFont, file: string, ranges: string) => `@font-face {
  font-family: '${font.family}';
  font-style: normal;
  font-weight: ${font.weight};
  font-display: swap;
  src: url('./${file}') format('woff2');
  unicode-range: ${ranges};
}
`;

/** The narrow spaces a Mono weight takes from the Sans (see the stylesheet's last comment). */
const NARROW_SPACES = 'U+2009, U+200A, U+202F';

/** fonts.css: two faces per font (core and extended), then the Mono weights' narrow spaces from the Sans. */
export function stylesheet(): string {
  const sans = WEB_FONTS[0]!;
  return `/*
 * Generated by scripts/lib/web-fonts.ts: the site's own cut of IBM Plex, one variable Sans for weights
 * 400–700 and Mono in 400 and 500. Each face comes in two files: the characters of English and German copy,
 * and the rest (fetched only by a page that shows one of them). Text shows at once in the fallback face and
 * takes Plex when it arrives; WebFonts.astro preloads the Sans's core file.
 */
${WEB_FONTS.map(
  (font) =>
    face(font, `${font.name}.woff2`, unicodeRange(CORE_RANGES)) +
    face(font, `${font.name}-ext.woff2`, unicodeRange(EXTENDED_RANGES)),
).join('')}/*
 * In a monospaced face every character is one column wide, the narrow no-break space of "27 %" included,
 * which reads as a full space. Declared last, these faces give each Mono weight the Sans's narrow spaces
 * (the same file, already loaded); a browser groups faces by weight, so there is one per Mono weight.
 */
${WEB_FONTS.filter((font) => font !== sans)
  .map((font) => face(font, `${sans.name}.woff2`, NARROW_SPACES))
  .join('')}`;
}

/** Every file written: the two cuts of each font and the stylesheet. */
const FILES = [...WEB_FONTS.flatMap((font) => [`${font.name}.woff2`, `${font.name}-ext.woff2`]), 'fonts.css'];

function textOf(ranges: Ranges): string {
  return String.fromCodePoint(...codePointsOf(ranges));
}

/** Writes the fonts under `root`; returns how many were cut (0 when the stamp says they are current). */
export async function writeWebFonts(root: string): Promise<number> {
  const require = createRequire(join(root, 'package.json'));
  const dir = join(root, WEB_FONT_DIR);
  const sources = WEB_FONTS.map((font) => readFileSync(require.resolve(font.source)));
  const css = stylesheet();
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ ranges: WEB_FONT_RANGES, core: CORE_RANGES, fonts: WEB_FONTS, css }));
  for (const source of sources) hash.update(source);
  const stamp = hash.digest('hex');
  const stampFile = join(dir, STAMP);
  const current =
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp &&
    FILES.every((file) => existsSync(join(dir, file)));
  if (current) return 0;

  mkdirSync(dir, { recursive: true });
  // Loaded only for a cut: the subsetter (HarfBuzz in WebAssembly) took 0.1 s of every build and dev start.
  const { default: subsetFont } = await import('subset-font');
  const cuts = [
    { suffix: '', text: textOf(CORE_RANGES) },
    { suffix: '-ext', text: textOf(EXTENDED_RANGES) },
  ];
  await Promise.all(
    WEB_FONTS.flatMap((font, index) =>
      cuts.map(async ({ suffix, text }) => {
        const subset = await subsetFont(sources[index]!, text, {
          targetFormat: 'woff2',
          noHinting: true,
          ...(font.axes ? { variationAxes: font.axes } : {}),
        });
        writeFileSync(join(dir, `${font.name}${suffix}.woff2`), subset);
      }),
    ),
  );
  writeFileSync(join(dir, 'fonts.css'), css);
  writeFileSync(stampFile, stamp);
  return WEB_FONTS.length * cuts.length;
}
