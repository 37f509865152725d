/**
 * The site's typefaces for pdfkit: IBM Plex Sans (variable, any weight) and IBM Plex Mono (static weights),
 * from the same @fontsource packages the site self-hosts. Each package splits a face into subsets by
 * Unicode range (latin, latin-ext, greek, …), as a browser would pick them; `runs()` does the same, so
 * "Marković" or "MΩ·cm" print in Plex rather than as empty boxes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { staticInstance } from '../fonts/instance.ts';
import { woff2ToTtf } from '../fonts/woff2.ts';

export type Family = 'sans' | 'mono';

interface Subset {
  name: string;
  ranges: [number, number][];
}

const require = createRequire(import.meta.url);
const packages: Record<Family, string> = {
  sans: dirname(require.resolve('@fontsource-variable/ibm-plex-sans/unicode.json')),
  mono: dirname(require.resolve('@fontsource/ibm-plex-mono/unicode.json')),
};
/** Mono ships static weights; the brochure uses these. Sans is variable (100–700). */
const MONO_WEIGHTS = [400, 500, 600];
/** The order a browser would try them in; latin first, so shared code points come from it. */
const SUBSET_ORDER = ['latin', 'latin-ext', 'greek', 'cyrillic', 'cyrillic-ext', 'vietnamese'];

function subsets(family: Family): Subset[] {
  const table = JSON.parse(readFileSync(join(packages[family], 'unicode.json'), 'utf8')) as Record<
    string,
    string
  >;
  return SUBSET_ORDER.filter((name) => table[name]).map((name) => ({
    name,
    ranges: table[name]!.split(',').map((range) => {
      const [from, to = from] = range.replace(/U\+/g, '').split('-') as [string, string?];
      return [parseInt(from, 16), parseInt(to, 16)];
    }),
  }));
}

function file(family: Family, subset: string, weight: number): string {
  return family === 'sans'
    ? join(packages.sans, 'files', `ibm-plex-sans-${subset}-wght-normal.woff2`)
    : join(packages.mono, 'files', `ibm-plex-mono-${subset}-${weight}-normal.woff2`);
}

const cache = new Map<string, Uint8Array>();
/** TrueType bytes of a WOFF2 file, at one weight when the face is variable. */
function trueType(path: string, weight?: number): Uint8Array {
  const key = `${path}@${weight ?? ''}`;
  let font = cache.get(key);
  if (!font) {
    font =
      weight === undefined
        ? woff2ToTtf(readFileSync(path))
        : staticInstance(trueType(path), { wght: weight });
    cache.set(key, font);
  }
  return font;
}

export interface Run {
  font: string;
  text: string;
}

/** Registers faces with a document on first use and splits text into runs by the subset that covers it. */
export class FontBook {
  private readonly doc: PDFKit.PDFDocument;
  private readonly registered = new Set<string>();
  private readonly tables: Record<Family, Subset[]> = { sans: subsets('sans'), mono: subsets('mono') };

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
  }

  private fontName(family: Family, subset: string, weight: number): string {
    const effective =
      family === 'mono'
        ? MONO_WEIGHTS.reduce((a, b) => (Math.abs(b - weight) < Math.abs(a - weight) ? b : a))
        : weight;
    const name = `${family}-${subset}-${effective}`;
    if (!this.registered.has(name)) {
      const path = file(family, subset, effective);
      const font = trueType(path, family === 'sans' ? effective : undefined);
      this.doc.registerFont(name, Buffer.from(font));
      this.registered.add(name);
    }
    return name;
  }

  private subsetFor(family: Family, codePoint: number): { family: Family; subset: string } {
    for (const candidate of [family, 'sans' as const]) {
      const subset = this.tables[candidate].find((s) =>
        s.ranges.some(([from, to]) => codePoint >= from && codePoint <= to),
      );
      if (subset) return { family: candidate, subset: subset.name };
    }
    throw new Error(
      `brochure: no IBM Plex subset covers U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
    );
  }

  /** The main font of a style, for measuring. */
  primary(family: Family, weight: number): string {
    return this.fontName(family, 'latin', weight);
  }

  runs(text: string, family: Family, weight: number): Run[] {
    const runs: Run[] = [];
    for (const char of text) {
      const { family: face, subset } = this.subsetFor(family, char.codePointAt(0)!);
      const font = this.fontName(face, subset, weight);
      const last = runs[runs.length - 1];
      if (last?.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }
}
