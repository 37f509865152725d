/**
 * A static instance of a variable TrueType font, e.g. IBM Plex Sans at weight 600. fontkit (pdfkit's font
 * engine) computes the outlines and advances of any weight, but its glyph encoder fails when it subsets a
 * variable font for a PDF. So each weight is written out here as an ordinary TrueType font, which pdfkit
 * subsets by copying glyphs. Hinting is dropped: PDF viewers render unhinted outlines anyway.
 */
import { createRequire } from 'node:module';
import { encodeSimpleGlyph, readSfnt, renameFont, writeSfnt, Writer, type Point } from './sfnt.ts';

interface PathCommand {
  command: string;
  args: number[];
}
interface FontkitGlyph {
  path: { commands: PathCommand[] };
  advanceWidth: number;
}
interface FontkitFont {
  numGlyphs: number;
  familyName: string;
  getVariation(settings: Record<string, number>): FontkitFont;
  getGlyph(id: number): FontkitGlyph;
}

// The fontkit that pdfkit itself runs, resolved through pdfkit instead of being a dependency of our own.
const pdfkitPath = createRequire(import.meta.url).resolve('pdfkit');
const fontkit = createRequire(pdfkitPath)('fontkit') as { create(font: Uint8Array): FontkitFont };

/** Tables that describe variations or hinting; the instance has neither. */
const DROPPED = [
  'fvar',
  'gvar',
  'avar',
  'cvar',
  'HVAR',
  'VVAR',
  'MVAR',
  'STAT',
  'cvt ',
  'fpgm',
  'prep',
  'hdmx',
  'LTSH',
  'VDMX',
  'DSIG',
];

/** TrueType contours from a glyph's path: quadratic curves only, composites already resolved. */
function contours(commands: PathCommand[]): Point[][] {
  const result: Point[][] = [];
  let current: Point[] = [];
  const point = (x: number, y: number, onCurve: boolean) => ({ x: Math.round(x), y: Math.round(y), onCurve });
  const close = () => {
    const first = current[0];
    const last = current[current.length - 1];
    // A path returns to its start; TrueType closes the contour implicitly.
    if (first && last && current.length > 1 && last.onCurve && last.x === first.x && last.y === first.y) {
      current.pop();
    }
    if (current.length) result.push(current);
    current = [];
  };
  for (const { command, args } of commands) {
    const [a = 0, b = 0, c = 0, d = 0] = args;
    if (command === 'moveTo') {
      close();
      current.push(point(a, b, true));
    } else if (command === 'lineTo') current.push(point(a, b, true));
    else if (command === 'quadraticCurveTo') current.push(point(a, b, false), point(c, d, true));
    else if (command === 'closePath') close();
    else throw new Error(`instance: unexpected ${command} in a TrueType outline`);
  }
  close();
  return result;
}

/** The standard names of weights (OpenType usWeightClass), as static font families name their styles. */
// prettier-ignore
const WEIGHT_NAMES: Record<number, string> = {
  100: 'Thin', 200: 'ExtraLight', 300: 'Light', 400: 'Regular', 500: 'Medium', 600: 'SemiBold', 700: 'Bold',
};

/**
 * Writes the instance of `font` at the given axis values. At a standard weight it takes that weight's
 * style name (IBMPlexSans-SemiBold), so PDF readers list the fonts by their real names.
 * @example staticInstance(ttf, { wght: 600 })
 */
export function staticInstance(font: Uint8Array, axes: Record<string, number>): Uint8Array {
  const instance = fontkit.create(font).getVariation(axes);
  const { flavor, tables } = readSfnt(font);
  const glyf = new Writer();
  const loca = new Writer();
  const hmtx = new Writer();
  let maxPoints = 0;
  let maxContours = 0;
  let maxAdvance = 0;
  for (let id = 0; id < instance.numGlyphs; id++) {
    loca.u32(glyf.length);
    const glyph = instance.getGlyph(id);
    const shape = contours(glyph.path.commands);
    const points = shape.flat();
    const advance = Math.max(0, Math.round(glyph.advanceWidth));
    maxAdvance = Math.max(maxAdvance, advance);
    if (points.length === 0) {
      hmtx.u16(advance);
      hmtx.u16(0);
      continue;
    }
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const bbox = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    let end = -1;
    const endPoints = shape.map((contour) => (end += contour.length));
    glyf.raw(encodeSimpleGlyph(endPoints, points, new Uint8Array(0), bbox));
    glyf.pad(4);
    hmtx.u16(advance);
    hmtx.u16(bbox[0]! & 0xffff);
    maxPoints = Math.max(maxPoints, points.length);
    maxContours = Math.max(maxContours, shape.length);
  }
  loca.u32(glyf.length);

  const copy = (tag: string) => {
    const table = tables.get(tag);
    if (!table) throw new Error(`instance: the font has no ${tag} table`);
    const bytes = new Uint8Array(table);
    return { bytes, view: new DataView(bytes.buffer) };
  };
  const head = copy('head');
  head.view.setInt16(50, 1); // indexToLocFormat: long offsets
  const hhea = copy('hhea');
  hhea.view.setUint16(10, maxAdvance);
  hhea.view.setUint16(34, instance.numGlyphs); // numberOfHMetrics: one per glyph
  const maxp = copy('maxp');
  if (maxp.bytes.length >= 14) {
    maxp.view.setUint16(6, maxPoints);
    maxp.view.setUint16(8, maxContours);
    maxp.view.setUint32(10, 0); // no composite glyphs left
  }
  const os2 = copy('OS/2');
  if (axes.wght) os2.view.setUint16(4, Math.round(axes.wght)); // usWeightClass

  const out = new Map<string, Uint8Array>();
  for (const [tag, bytes] of tables) if (!DROPPED.includes(tag)) out.set(tag, bytes);
  const style = axes.wght ? WEIGHT_NAMES[axes.wght] : undefined;
  const name = tables.get('name');
  if (style && name) {
    const family = instance.familyName;
    const postscript = `${family.replace(/\s+/g, '')}-${style}`;
    out.set('name', renameFont(name, { 2: style, 4: `${family} ${style}`, 6: postscript, 17: style }));
  }
  out.set('head', head.bytes);
  out.set('hhea', hhea.bytes);
  out.set('maxp', maxp.bytes);
  out.set('OS/2', os2.bytes);
  out.set('glyf', glyf.result());
  out.set('loca', loca.result());
  out.set('hmtx', hmtx.result());
  return writeSfnt(flavor, out);
}
