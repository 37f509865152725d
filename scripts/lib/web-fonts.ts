/**
 * The site's web fonts, cut from IBM's complete Plex files into src/generated/fonts/ after `npm install` and
 * before every dev start and build: one variable IBM Plex Sans (weights 400–700, normal width) and IBM Plex
 * Mono 400 and 500, together holding exactly the characters in WEB_FONT_RANGES, without hinting. Each face is
 * cut twice (issue 38): the characters of English and German copy (CORE_RANGES), which every page fetches, and
 * the rest of WEB_FONT_RANGES (Latin Extended-A names, Greek, arrows, sub- and superscripts), which a browser
 * fetches only for a page that shows one of them, as `unicode-range` in the generated fonts.css tells it. The
 * three core files are 51 KB together, the three whole files were 68 KB. fonts.css also sizes the system fonts
 * a browser shows before Plex arrives to Plex's metrics (FONT_STACKS) and sets the stacks. The cut is skipped
 * when the sources, the ranges and the options are those of the files already written (a stamp holds their
 * hash).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createFontStack } from '@capsizecss/core';

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

/**
 * What a fallback face needs to take a font's place without moving the text: vertical metrics in font units
 * and the average advance of a character in English text (capsize's `xWidthAvg`, letters weighted by their
 * frequency), from which `size-adjust` follows.
 */
interface FontMetrics {
  familyName: string;
  fullName?: string;
  postscriptName?: string;
  ascent: number;
  descent: number;
  lineGap: number;
  unitsPerEm: number;
  xWidthAvg: number;
}

/** A font's regular face and, where the site sets headings in it, its bold one. */
interface FontWeights {
  regular: FontMetrics;
  bold?: FontMetrics;
}

const PLEX = { ascent: 1025, descent: -275, lineGap: 0, unitsPerEm: 1000 };

/**
 * Plex's own metrics, those of the files cut above; the Sans's bold is its variable face at 600, the weight of
 * the headings (tests/unit/web-fonts.test.ts measures all of them in the sources, so a release of the packages
 * that changes one fails there). Mono has the same width in both weights.
 */
export const PLEX_METRICS = {
  sans: {
    regular: { familyName: 'IBM Plex Sans Variable', ...PLEX, xWidthAvg: 451 },
    bold: { familyName: 'IBM Plex Sans Variable', ...PLEX, xWidthAvg: 467 },
  },
  mono: { regular: { familyName: 'IBM Plex Mono', ...PLEX, xWidthAvg: 600 } },
} satisfies Record<string, FontWeights>;

const system = (
  [familyName, fullName, postscriptName]: [string, string, string],
  [ascent, descent, lineGap, unitsPerEm]: [number, number, number, number],
  xWidthAvg: number,
): FontMetrics => ({ familyName, fullName, postscriptName, ascent, descent, lineGap, unitsPerEm, xWidthAvg });

const ARIAL = [1854, -434, 67, 2048] as [number, number, number, number];
const ROBOTO = [1900, -500, 0, 2048] as [number, number, number, number];
const DEJAVU = [1901, -483, 0, 2048] as [number, number, number, number];
const COURIER = [1705, -615, 0, 2048] as [number, number, number, number];

/**
 * The system fonts a browser sets the text in until Plex arrives, each sized to Plex by faces of its own:
 * Roboto on Android; Arial and Courier New on Windows, macOS and iOS; Liberation and DejaVu on Linux. A face
 * names the font it stands for, since `local()` matches names: Liberation Sans and Mono have the metrics of
 * Arial and Courier New but faces of their own. The regular faces of Roboto, Arial and Courier New as
 * capsize's metrics collection gives them (@capsizecss/metrics 4.3.0; not a dependency, it is 169 MB
 * installed); the rest read with @capsizecss/unpack from Debian's fonts-liberation and fonts-dejavu-core
 * and from @fontsource/roboto 5 (Roboto Bold); Arial Bold is Liberation Sans Bold's twin.
 */
const SYSTEM_FONTS = {
  roboto: {
    regular: system(['Roboto', 'Roboto Regular', 'Roboto-Regular'], ROBOTO, 911),
    bold: system(['Roboto', 'Roboto Bold', 'Roboto-Bold'], ROBOTO, 926),
  },
  arial: {
    regular: system(['Arial', 'Arial', 'ArialMT'], ARIAL, 913),
    bold: system(['Arial', 'Arial Bold', 'Arial-BoldMT'], ARIAL, 983),
  },
  liberationSans: {
    regular: system(['Liberation Sans', 'Liberation Sans', 'LiberationSans'], ARIAL, 913),
    bold: system(['Liberation Sans', 'Liberation Sans Bold', 'LiberationSans-Bold'], ARIAL, 983),
  },
  dejaVuSans: {
    regular: system(['DejaVu Sans', 'DejaVu Sans', 'DejaVuSans'], DEJAVU, 1041),
    bold: system(['DejaVu Sans', 'DejaVu Sans Bold', 'DejaVuSans-Bold'], DEJAVU, 1176),
  },
  courierNew: { regular: system(['Courier New', 'Courier New', 'CourierNewPSMT'], COURIER, 1229) },
  liberationMono: {
    regular: system(['Liberation Mono', 'Liberation Mono', 'LiberationMono'], COURIER, 1229),
  },
  dejaVuSansMono: {
    regular: system(['DejaVu Sans Mono', 'DejaVu Sans Mono', 'DejaVuSansMono'], DEJAVU, 1233),
  },
} satisfies Record<string, FontWeights>;

interface FontStack {
  /** The custom property the site's styles read the stack from. */
  property: string;
  font: FontWeights;
  /** System fonts to size to `font`, in the order a browser should try them. */
  fallbacks: FontWeights[];
  /** The families after the sized fallbacks, as they stood before there were any. */
  rest: string;
}

export const FONT_STACKS: readonly FontStack[] = [
  {
    property: '--font-sans',
    font: PLEX_METRICS.sans,
    fallbacks: [
      SYSTEM_FONTS.roboto,
      SYSTEM_FONTS.arial,
      SYSTEM_FONTS.liberationSans,
      SYSTEM_FONTS.dejaVuSans,
    ],
    rest: "'IBM Plex Sans', system-ui, -apple-system, 'Segoe UI', sans-serif",
  },
  {
    property: '--font-mono',
    font: PLEX_METRICS.mono,
    fallbacks: [SYSTEM_FONTS.courierNew, SYSTEM_FONTS.liberationMono, SYSTEM_FONTS.dejaVuSansMono],
    rest: "ui-monospace, 'SFMono-Regular', Menlo, monospace",
  },
];

/** The weights each face serves: 400 and 500 the regular, 600 and 700 the bold (headings and labels). */
const WEIGHTS = { regular: '400 500', bold: '600 700' } as const;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The sized fallback faces of a stack (capsize computes them) and the stack's `font-family` value. A stack
 * without bold metrics gets regular faces for every weight, as Mono, whose width does not change with it.
 */
function fallbackFaces(stack: FontStack): { faces: string; family: string } {
  const variants = stack.font.bold ? (['regular', 'bold'] as const) : (['regular'] as const);
  const faces = variants.flatMap((variant) =>
    createFontStack([stack.font[variant]!, ...stack.fallbacks.map((fallback) => fallback[variant]!)], {
      fontFaceFormat: 'styleObject',
      ...(stack.font.bold ? { fontFaceProperties: { fontWeight: WEIGHTS[variant] } } : {}),
    }).fontFaces.map(({ '@font-face': descriptors }) => descriptors),
  );
  const css = faces
    .map(({ fontFamily, src, ...rest }) => {
      const descriptors = { fontFamily, src, ...rest };
      const lines = Object.entries(descriptors).map(([name, value]) => `  ${kebab(name)}: ${String(value)};`);
      return `@font-face {\n${lines.join('\n')}\n}\n`;
    })
    .join('');
  const families = [...new Set(faces.map((face) => face.fontFamily))];
  return { faces: css, family: [`'${stack.font.regular.familyName}'`, ...families, stack.rest].join(', ') };
}

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

/**
 * fonts.css: two faces per font (core and extended), the Mono weights' narrow spaces from the Sans, then the
 * sized fallback faces and the two stacks that use them.
 */
export function stylesheet(): string {
  const sans = WEB_FONTS[0]!;
  const stacks = FONT_STACKS.map((stack) => ({ stack, ...fallbackFaces(stack) }));
  return `/*
 * Generated by scripts/lib/web-fonts.ts: the site's own cut of IBM Plex, one variable Sans for weights
 * 400–700 and Mono in 400 and 500. Each face comes in two files: the characters of English and German copy,
 * and the rest (fetched only by a page that shows one of them). Text shows at once in a system font sized to
 * Plex (the faces at the end) and takes Plex when it arrives.
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
  .join('')}/*
 * Until Plex arrives, text is set in a system font sized to it: each face below takes one installed font
 * (\`local()\`; a font the device lacks is passed over) and scales it to Plex's average width, with Plex's
 * ascent and descent, so that lines break about where Plex will break them and the swap moves little or nothing.
 */
${stacks.map(({ faces }) => faces).join('')}:root {
${stacks.map(({ stack, family }) => `  ${stack.property}: ${family};`).join('\n')}
}
`;
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
