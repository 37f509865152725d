/**
 * Social cards (issue 16): a 1200×630 PNG per indexable page in the house look — brand mark, section, title,
 * the page's drawing or the P&ID line motif — laid out by satori and rasterised by resvg. Every card is cached
 * under node_modules/.cache/og by a hash of everything that draws it, so a rebuild renders only what changed.
 *
 * A card is drawn in two layers (docs/decisions.md, "Social cards"). The base — paper, grid, brand, motif or
 * framed drawing — is the same for every card with the same drawing, so it is rasterised once per drawing in
 * a process; each card then lays out only its own words over that base at 1:1. Both layers go through the same
 * satori layout, so the words sit where they always did and the pixels are those of drawing the card whole.
 * Where a card's words would reach into the base's own marks (a German compound running into the drawing's
 * frame, which covers it), the card is drawn whole as before, so the frame stays on top.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { writeWhole } from '../../lib/write-whole.ts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface CardInput {
  /** The page's route, printed as the address at the foot of the card. */
  path: string;
  title: string;
  /** Section and division above the title ("Division · Pharma & life sciences"). */
  section: string;
  /** Absolute path of the page's SVG drawing, if it has one. */
  drawing?: string;
}

const palette = {
  paper: '#f7f5f0',
  ink: '#0e2230',
  blue: '#16466e',
  copper: '#b24a12',
  muted: '#4f6473',
  rule: '#d6dcdf',
} as const;

/** Bump when the layout changes, so cached cards are drawn again. */
const LAYOUT_VERSION = 2;
const cacheDir = join(process.cwd(), 'node_modules', '.cache', 'og');
const require = createRequire(import.meta.url);

let fonts: Promise<Parameters<typeof satori>[1]['fonts']> | undefined;
function loadFonts() {
  const file = (pkg: string, name: string) =>
    readFile(join(require.resolve(`${pkg}/package.json`), '..', 'fonts', 'complete', 'woff', name));
  fonts ??= Promise.all([
    file('@ibm/plex-sans', 'IBMPlexSans-Regular.woff'),
    file('@ibm/plex-sans', 'IBMPlexSans-SemiBold.woff'),
    file('@ibm/plex-sans', 'IBMPlexSans-Bold.woff'),
    file('@ibm/plex-mono', 'IBMPlexMono-Medium.woff'),
  ]).then(([regular, semibold, bold, mono]) => [
    { name: 'Plex', data: regular, weight: 400, style: 'normal' },
    { name: 'Plex', data: semibold, weight: 600, style: 'normal' },
    { name: 'Plex', data: bold, weight: 700, style: 'normal' },
    { name: 'Plex Mono', data: mono, weight: 500, style: 'normal' },
  ]);
  return fonts;
}

type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown> } };
const h = (type: string, style: Record<string, unknown>, ...children: unknown[]): Node => ({
  type,
  props: { style: { display: 'flex', ...style }, children },
});
const img = (src: string, width: number, height: number, style: Record<string, unknown> = {}): Node => ({
  type: 'img',
  props: { src, width, height, style: { width, height, flexShrink: 0, ...style } },
});
const svgUri = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

// The drafting-paper grid of the site's bands.
const grid = svgUri(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}"><path d="${[
    ...Array.from({ length: CARD_WIDTH / 24 }, (_, i) => `M${i * 24 + 0.5} 0V${CARD_HEIGHT}`),
    ...Array.from({ length: Math.ceil(CARD_HEIGHT / 24) }, (_, i) => `M0 ${i * 24 + 0.5}H${CARD_WIDTH}`),
  ].join('')}" stroke="${palette.blue}" stroke-opacity=".07"/></svg>`,
);

const mark = svgUri(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="6" fill="${palette.blue}"/><path d="M12 9v22M12 20h6l9-11M18 20l9 11" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="square"/><circle cx="18" cy="20" r="3" fill="#f29a5c"/></svg>`,
);

// Pages without a drawing get the house motif: a process line with a valve, a pump and instrument bubbles.
const motif = svgUri(
  `<svg xmlns="http://www.w3.org/2000/svg" width="1072" height="96" viewBox="0 0 1072 96" fill="none" stroke-width="2.5">
<path d="M0 60H300M336 60H640M700 60H1000" stroke="${palette.blue}"/><path d="M1000 60H1060m-12 -8 12 8-12 8" stroke="${palette.copper}"/>
<path d="M300 48v24l36-24v24z" stroke="${palette.blue}" fill="#fff"/><circle cx="670" cy="60" r="30" stroke="${palette.blue}" fill="#fff"/><path d="M650 38 700 60 650 82" stroke="${palette.blue}"/>
<path d="M318 48V24M180 60V32M860 60V32" stroke="${palette.blue}" stroke-dasharray="4 4"/>
<circle cx="318" cy="16" r="14" stroke="${palette.blue}" fill="#fff"/><circle cx="180" cy="18" r="14" stroke="${palette.copper}" fill="#fff"/><circle cx="860" cy="18" r="14" stroke="${palette.blue}" fill="#fff"/>
</svg>`,
);

const paper = { backgroundColor: palette.paper, backgroundImage: `url(${grid})` };

function titleSize(title: string, wide: boolean): number {
  const n = title.length * (wide ? 0.6 : 1);
  return n <= 34 ? 60 : n <= 56 ? 52 : n <= 74 ? 44 : 40;
}

interface Drawing {
  uri: string;
  width: number;
  height: number;
}

/**
 * Which part of the card a pass paints: `base` everything the card shares with the others of its drawing,
 * `words` its section, title and address, `card` both. The part left out keeps its boxes, so every pass lays
 * out alike.
 */
type Layer = 'card' | 'base' | 'words';

async function layout(card: CardInput, drawing: Drawing | undefined, layer: Layer) {
  const base = layer !== 'words';
  /** A colour of the base part, or of the card's words: transparent in the pass that leaves it out. */
  const paint = (colour: string, part: Exclude<Layer, 'card'> = 'base') =>
    layer === 'card' || part === layer ? colour : 'transparent';
  /** An image of the base; in the words pass an empty box of its size. */
  const picture = (src: string, width: number, height: number) =>
    base ? img(src, width, height) : h('div', { width, height, flexShrink: 0 });
  const address = `korvel.example${card.path === '/' ? '' : card.path}`;
  const brand = h(
    'div',
    { alignItems: 'center', gap: 16 },
    picture(mark, 56, 56),
    h(
      'div',
      { flexDirection: 'column' },
      h('div', { fontSize: 30, fontWeight: 700, letterSpacing: 5, color: paint(palette.ink) }, 'KORVEL'),
      h(
        'div',
        { fontFamily: 'Plex Mono', fontSize: 13, letterSpacing: 4, color: paint(palette.muted) },
        'ENGINEERING',
      ),
    ),
  );
  const text = h(
    'div',
    { flexDirection: 'column', gap: 18 },
    h(
      'div',
      { fontFamily: 'Plex Mono', fontSize: 20, letterSpacing: 2, color: paint(palette.copper, 'words') },
      card.section.toUpperCase(),
    ),
    h(
      'div',
      {
        fontSize: titleSize(card.title, !drawing),
        fontWeight: 600,
        lineHeight: 1.15,
        color: paint(palette.ink, 'words'),
      },
      card.title,
    ),
  );
  const foot = h(
    'div',
    {
      fontFamily: 'Plex Mono',
      fontSize: 18,
      color: paint(palette.muted, 'words'),
      alignItems: 'center',
      gap: 12,
    },
    h('div', { width: 32, height: 3, flexShrink: 0, backgroundColor: paint(palette.copper) }),
    h(
      'div',
      {
        display: 'block',
        maxWidth: drawing ? 516 : 1028,
        overflow: 'hidden',
        whiteSpace: 'nowrap',
        textOverflow: 'ellipsis',
      },
      address,
    ),
  );
  const left = h(
    'div',
    {
      flexDirection: 'column',
      justifyContent: 'space-between',
      width: drawing ? 560 : 1072,
      height: 502,
      flexShrink: 0,
    },
    brand,
    text,
    drawing ? foot : h('div', { flexDirection: 'column', gap: 20 }, picture(motif, 1072, 96), foot),
  );
  const frame = drawing
    ? h(
        'div',
        {
          width: 480,
          padding: 12,
          alignSelf: 'center',
          flexShrink: 0,
          overflow: 'hidden',
          alignItems: 'center',
          justifyContent: 'center',
          backgroundColor: paint('#fff'),
          border: `1px solid ${paint(palette.rule)}`,
          borderRadius: 12,
        },
        picture(drawing.uri, drawing.width, drawing.height),
      )
    : null;
  return h(
    'div',
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      alignItems: 'center',
      justifyContent: 'center',
      fontFamily: 'Plex',
      ...(base && paper),
    },
    h('div', { width: 1072, height: 502, justifyContent: 'space-between' }, left, ...(frame ? [frame] : [])),
  );
}

// The drawings' equipment tags are SVG text: resvg draws them in Plex Mono where installed, else in the
// monospace their font-family lists next (as sharp did for the previous share images).
function render(svg: string, width: number, text: boolean) {
  return new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    // satori has already turned the card's own text into paths; only the drawings need fonts.
    font: text
      ? { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans Mono' }
      : { loadSystemFonts: false },
  }).render();
}

function rasterise(svg: string, width: number, text: boolean): Buffer {
  return render(svg, width, text).asPng();
}

/** The drawing as the card shows it: 456 px wide, rasterised at twice that and scaled down in the card. */
function frameDrawing(drawingSvg: string): Drawing {
  const [, w, h2] = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(drawingSvg) ?? [];
  const ratio = Number(h2) / Number(w) || 0.75;
  const width = 456;
  // Rasterised on its own first: resvg does not lend its fonts to a nested SVG, and the tags are text.
  const png = rasterise(drawingSvg, width * 2, true);
  return { uri: `data:image/png;base64,${png.toString('base64')}`, width, height: Math.round(width * ratio) };
}

async function cardSvg(card: CardInput, drawing: Drawing | undefined, layer: Layer): Promise<string> {
  return satori((await layout(card, drawing, layer)) as never, {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: await loadFonts(),
  });
}

const rgba = (svg: string) => {
  const image = render(svg, CARD_WIDTH, false);
  return { png: image.asPng(), pixels: image.pixels };
};

/** Bare drafting paper, as every card's base draws it: where the base still shows only this, words may go. */
let bare: Promise<Buffer> | undefined;
function barePaper() {
  bare ??= (async () =>
    rgba(
      await satori(h('div', { width: CARD_WIDTH, height: CARD_HEIGHT, ...paper }) as never, {
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        fonts: await loadFonts(),
      }),
    ).pixels)();
  return bare;
}

interface Base {
  drawing?: Drawing;
  uri: string;
  pixels: Buffer;
}

/**
 * The base of every card with this drawing (none: the motif cards), drawn once a process. Its layout is that
 * of any card with the drawing: the words it leaves out take no part in placing the rest.
 */
const bases = new Map<string, Promise<Base>>();
function baseOf(card: CardInput, drawingSvg: string | undefined) {
  const key = drawingSvg === undefined ? '' : createHash('sha256').update(drawingSvg).digest('hex');
  let base = bases.get(key);
  if (!base) {
    base = (async () => {
      const drawing = drawingSvg === undefined ? undefined : frameDrawing(drawingSvg);
      const { png, pixels } = rgba(await cardSvg(card, drawing, 'base'));
      return { drawing, uri: `data:image/png;base64,${png.toString('base64')}`, pixels };
    })();
    bases.set(key, base);
  }
  return base;
}

/**
 * Whether the base is bare paper under every run of the card's words: satori draws each text as one filled
 * path, and each visible path's outline (a pixel wider for antialiasing) must miss the base's own marks. The
 * words pass paints nothing else; one whose text is not found that way counts as not on paper, so the card is
 * drawn whole.
 */
async function wordsOnPaper(words: string, base: Base): Promise<boolean> {
  const open = /^<svg[^>]*>/.exec(words)?.[0];
  const runs = words.match(/<path fill="(?!transparent"|none")[^"]*"[^>]*\/>/g);
  if (!open || !runs) return false;
  const paper = await barePaper();
  return runs.every((run) => {
    const box = new Resvg(`${open}${run}</svg>`, { font: { loadSystemFonts: false } }).innerBBox();
    if (!box) return true;
    const x0 = Math.max(0, Math.floor(box.x) - 1) * 4;
    const x1 = Math.min(CARD_WIDTH, Math.ceil(box.x + box.width) + 1) * 4;
    const y1 = Math.min(CARD_HEIGHT, Math.ceil(box.y + box.height) + 1);
    for (let y = Math.max(0, Math.floor(box.y) - 1); y < y1; y++) {
      const row = y * CARD_WIDTH * 4;
      if (base.pixels.compare(paper, row + x0, row + x1, row + x0, row + x1) !== 0) return false;
    }
    return true;
  });
}

/**
 * A card's PNG: its words over the shared base, or, with `whole` or where the words would reach into the
 * base's marks, the card laid out and rasterised in one pass. Both give the same pixels (tests/unit/og-card).
 */
export async function drawCard(card: CardInput, drawingSvg?: string, whole = false): Promise<Buffer> {
  const base = await baseOf(card, drawingSvg);
  const words = await cardSvg(card, base.drawing, 'words');
  if (whole || !(await wordsOnPaper(words, base))) {
    return rasterise(await cardSvg(card, base.drawing, 'card'), CARD_WIDTH, false);
  }
  // The base goes under everything else, at 1:1, where satori's own background would have been.
  const image = `<image x="0" y="0" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" href="${base.uri}"/>`;
  return rasterise(
    words.replace(/^<svg[^>]*>/, (open) => open + image),
    CARD_WIDTH,
    false,
  );
}

export interface CachedCard {
  /** The PNG in node_modules/.cache/og. */
  file: string;
  /** Whether it was there already (false: drawn now). */
  cached: boolean;
}

/**
 * Each drawing's text, read once per process while the file stays as it was: at 1,000 articles, 1,000 cards
 * share a handful of drawings.
 */
const drawings = new Map<string, { stamp: string; svg: Promise<string> }>();
async function drawingText(path: string): Promise<string> {
  const { mtimeMs, size } = await stat(path);
  const stamp = `${mtimeMs}:${size}`;
  const known = drawings.get(path);
  if (known?.stamp === stamp) return known.svg;
  const svg = readFile(path, 'utf8');
  drawings.set(path, { stamp, svg });
  return svg;
}

/** The card's PNG in the cache, drawn and stored first when nothing drawn from the same inputs is there. */
export async function cachedCard(card: CardInput): Promise<CachedCard> {
  const drawingSvg = card.drawing ? await drawingText(card.drawing) : undefined;
  const key = createHash('sha256')
    .update(JSON.stringify({ v: LAYOUT_VERSION, card: { ...card, drawing: undefined }, drawingSvg }))
    .digest('hex')
    .slice(0, 32);
  const file = join(cacheDir, `${key}.png`);
  if (existsSync(file)) return { file, cached: true };
  const png = await drawCard(card, drawingSvg);
  await mkdir(cacheDir, { recursive: true });
  // A build stopped halfway leaves no half card in the cache.
  await writeWhole(file, png);
  return { file, cached: false };
}
