/**
 * The site's typefaces for pdfkit: IBM Plex Sans and IBM Plex Mono as IBM ships them (@ibm/plex-sans,
 * @ibm/plex-mono), one static WOFF file per weight with every script of the face. Plex Mono has no Greek,
 * so `runs()` sets a character the style's face lacks in Plex Sans: "MΩ·cm" in a label prints in Plex, not
 * as empty boxes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

export type Family = 'sans' | 'mono';

const require = createRequire(import.meta.url);
const STYLES: Record<number, string> = { 400: 'Regular', 500: 'Medium', 600: 'SemiBold', 700: 'Bold' };

/**
 * WOFF, not WOFF2: fontkit subsets WOFF tables as they are, but cannot subset WOFF2's transformed glyphs.
 * IBM's complete files, not @fontsource's subsets: fontkit 2.0.4 throws on a font whose last glyph is
 * empty (foliojs/fontkit#378), as every @fontsource subset's trailing space is.
 */
function load(family: Family, weight: number): Font {
  const style = STYLES[weight];
  if (!style) throw new Error(`brochure: no IBM Plex file for weight ${weight}`);
  const face = family === 'sans' ? 'Sans' : 'Mono';
  const file = require.resolve(`@ibm/plex-${family}/fonts/complete/woff/IBMPlex${face}-${style}.woff`);
  return create(readFileSync(file)) as Font;
}

export interface Run {
  font: string;
  text: string;
}

/** Registers faces with a document on first use and splits text into runs by the face that has the glyph. */
export class FontBook {
  private readonly doc: PDFKit.PDFDocument;
  private readonly faces = new Map<string, Font>();

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
  }

  private face(family: Family, weight: number): { name: string; font: Font } {
    const name = `${family}-${weight}`;
    let font = this.faces.get(name);
    if (!font) {
      font = load(family, weight);
      // pdfkit takes a fontkit font as it is, so each file is parsed once.
      this.doc.registerFont(name, font as unknown as PDFKit.Mixins.PDFFontSource);
      this.faces.set(name, font);
    }
    return { name, font };
  }

  /** The font of a style, for measuring. */
  primary(family: Family, weight: number): string {
    return this.face(family, weight).name;
  }

  /** The style's face when it has the character, otherwise Plex Sans. Line breaks stay in the style's face. */
  private faceFor(char: string, family: Family, weight: number): string {
    const codePoint = char.codePointAt(0)!;
    for (const candidate of [family, 'sans'] as const) {
      const { name, font } = this.face(candidate, weight);
      if (char === '\n' || font.hasGlyphForCodePoint(codePoint)) return name;
    }
    const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
    throw new Error(`brochure: IBM Plex has no glyph for U+${hex}`);
  }

  runs(text: string, family: Family, weight: number): Run[] {
    const runs: Run[] = [];
    for (const char of text) {
      const font = this.faceFor(char, family, weight);
      const last = runs[runs.length - 1];
      if (last?.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }
}
