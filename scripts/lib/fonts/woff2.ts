/**
 * WOFF2 → TrueType, after the W3C WOFF2 specification (https://www.w3.org/TR/WOFF2/). The site's fonts
 * ship only as WOFF2 (IBM Plex Sans only as a variable font), and fontkit, the font engine inside pdfkit,
 * can lay such files out but neither subset them nor apply their variations. A plain TrueType file does
 * both, so the brochure decodes the WOFF2 files it embeds. TrueType-flavoured single fonts only (no CFF, no
 * collections), which is what @fontsource publishes.
 */
import { brotliDecompressSync } from 'node:zlib';
import { encodeSimpleGlyph, Reader, Writer, writeSfnt, type Point } from './sfnt.ts';

// prettier-ignore
const KNOWN_TAGS = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep',
  'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE',
  'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt',
  'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar',
  'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
];

/** UIntBase128 (WOFF2 §4.1). */
function base128(input: Reader): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = input.u8();
    if (i === 0 && byte === 0x80) throw new Error('WOFF2: UIntBase128 with a leading zero');
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  throw new Error('WOFF2: UIntBase128 longer than five bytes');
}

/** 255UInt16 (WOFF2 §4.1). */
function u255(input: Reader): number {
  const code = input.u8();
  if (code === 253) return input.u16();
  if (code === 255) return input.u8() + 253;
  if (code === 254) return input.u8() + 506;
  return code;
}

interface TableEntry {
  tag: string;
  transformed: boolean;
  origLength: number;
  length: number;
  data?: Uint8Array;
}

const withSign = (flag: number, value: number) => (flag & 1 ? value : -value);

/** The point triplets of the transformed glyf table (WOFF2 §5.2). */
function decodeTriplets(flags: Uint8Array, glyphs: Reader): Point[] {
  const points: Point[] = [];
  let x = 0;
  let y = 0;
  for (const raw of flags) {
    const onCurve = raw >> 7 === 0;
    const flag = raw & 0x7f;
    let dx: number;
    let dy: number;
    if (flag < 10) {
      dx = 0;
      dy = withSign(flag, ((flag & 14) << 7) + glyphs.u8());
    } else if (flag < 20) {
      dx = withSign(flag, (((flag - 10) & 14) << 7) + glyphs.u8());
      dy = 0;
    } else if (flag < 84) {
      const b0 = flag - 20;
      const b1 = glyphs.u8();
      dx = withSign(flag, 1 + (b0 & 0x30) + (b1 >> 4));
      dy = withSign(flag >> 1, 1 + ((b0 & 0x0c) << 2) + (b1 & 0x0f));
    } else if (flag < 120) {
      const b0 = flag - 84;
      dx = withSign(flag, 1 + (Math.floor(b0 / 12) << 8) + glyphs.u8());
      dy = withSign(flag >> 1, 1 + (((b0 % 12) >> 2) << 8) + glyphs.u8());
    } else if (flag < 124) {
      const b1 = glyphs.u8();
      const b2 = glyphs.u8();
      dx = withSign(flag, (b1 << 4) + (b2 >> 4));
      dy = withSign(flag >> 1, ((b2 & 0x0f) << 8) + glyphs.u8());
    } else {
      dx = withSign(flag, glyphs.u16());
      dy = withSign(flag >> 1, glyphs.u16());
    }
    x += dx;
    y += dy;
    points.push({ x, y, onCurve });
  }
  return points;
}

const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

/** Rebuilds glyf and loca from the transformed glyf table (WOFF2 §5.1). loca is always the long format. */
function reconstructGlyf(data: Uint8Array): { glyf: Uint8Array; loca: Uint8Array } {
  const header = new Reader(data);
  header.u16(); // reserved
  const optionFlags = header.u16();
  const numGlyphs = header.u16();
  header.u16(); // indexFormat: the output always uses long offsets
  const sizes = Array.from({ length: 7 }, () => header.u32());
  const streams = sizes.map((size) => new Reader(header.take(size)));
  const [nContours, nPoints, flagStream, glyphStream, composites, bboxStream, instructionStream] =
    streams as [Reader, Reader, Reader, Reader, Reader, Reader, Reader];
  const overlapBitmap = optionFlags & 1 ? header.take(Math.ceil(numGlyphs / 8)) : undefined;
  const bboxBitmap = bboxStream.take(4 * Math.floor((numGlyphs + 31) / 32));
  const hasBit = (bitmap: Uint8Array, i: number) => (bitmap[i >> 3]! & (0x80 >> (i & 7))) !== 0;

  const glyf = new Writer();
  const offsets: number[] = [];
  for (let i = 0; i < numGlyphs; i++) {
    offsets.push(glyf.length);
    const contours = nContours.i16();
    const explicitBox = hasBit(bboxBitmap, i);
    const box = explicitBox ? [bboxStream.i16(), bboxStream.i16(), bboxStream.i16(), bboxStream.i16()] : [];
    if (contours === 0) continue;
    if (contours > 0) {
      const endPoints: number[] = [];
      let total = 0;
      for (let c = 0; c < contours; c++) {
        total += u255(nPoints);
        endPoints.push(total - 1);
      }
      const points = decodeTriplets(flagStream.take(total), glyphStream);
      const instructions = instructionStream.take(u255(glyphStream));
      const bbox = explicitBox
        ? box
        : [
            Math.min(...points.map((p) => p.x)),
            Math.min(...points.map((p) => p.y)),
            Math.max(...points.map((p) => p.x)),
            Math.max(...points.map((p) => p.y)),
          ];
      const overlap = overlapBitmap ? hasBit(overlapBitmap, i) : false;
      glyf.raw(encodeSimpleGlyph(endPoints, points, instructions, bbox, overlap));
    } else {
      if (!explicitBox) throw new Error(`WOFF2: composite glyph ${i} has no bounding box`);
      const start = composites.pos;
      let flags = MORE_COMPONENTS;
      let instructed = false;
      while (flags & MORE_COMPONENTS) {
        flags = composites.u16();
        instructed ||= (flags & WE_HAVE_INSTRUCTIONS) !== 0;
        let skip = 2 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
        if (flags & WE_HAVE_A_SCALE) skip += 2;
        else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) skip += 4;
        else if (flags & WE_HAVE_A_TWO_BY_TWO) skip += 8;
        composites.take(skip);
      }
      const components = composites.bytes.subarray(start, composites.pos);
      glyf.u16(0xffff);
      for (const value of box) glyf.u16(value & 0xffff);
      glyf.raw(components);
      if (instructed) {
        const instructions = instructionStream.take(u255(glyphStream));
        glyf.u16(instructions.length);
        glyf.raw(instructions);
      }
    }
    glyf.pad(4);
  }
  offsets.push(glyf.length);
  const loca = new Writer();
  for (const offset of offsets) loca.u32(offset);
  return { glyf: glyf.result(), loca: loca.result() };
}

/** Undoes the hmtx transform (WOFF2 §5.4): left side bearings dropped because they equal each glyph's xMin. */
function reconstructHmtx(data: Uint8Array, numHMetrics: number, glyf: Uint8Array, loca: Uint8Array) {
  const input = new Reader(data);
  const flags = input.u8();
  const numGlyphs = loca.length / 4 - 1;
  const advances = Array.from({ length: numHMetrics }, () => input.u16());
  const locaView = new DataView(loca.buffer, loca.byteOffset, loca.byteLength);
  const glyfView = new DataView(glyf.buffer, glyf.byteOffset, glyf.byteLength);
  const xMin = (i: number) => {
    const offset = locaView.getUint32(i * 4);
    return offset === locaView.getUint32(i * 4 + 4) ? 0 : glyfView.getInt16(offset + 2);
  };
  const out = new Writer();
  for (let i = 0; i < numGlyphs; i++) {
    if (i < numHMetrics) out.u16(advances[i]!);
    const explicit = i < numHMetrics ? (flags & 1) === 0 : (flags & 2) === 0;
    out.u16((explicit ? input.i16() : xMin(i)) & 0xffff);
  }
  return out.result();
}

/**
 * Decodes a WOFF2 file into an equivalent TrueType file (glyph instructions and variations kept).
 * @example woff2ToTtf(readFileSync('ibm-plex-sans-latin-wght-normal.woff2'))
 */
export function woff2ToTtf(woff2: Uint8Array): Uint8Array {
  const input = new Reader(woff2);
  if (input.u32() !== 0x774f4632) throw new Error('Not a WOFF2 file');
  const flavor = input.u32();
  if (flavor === 0x74746366) throw new Error('WOFF2 font collections are not supported');
  input.u32(); // length
  const numTables = input.u16();
  input.u16(); // reserved
  input.u32(); // totalSfntSize
  const compressedSize = input.u32();
  input.take(24); // versions, metadata and private block

  const tables: TableEntry[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = input.u8();
    const index = flags & 0x3f;
    const tag =
      index === 63 ? String.fromCharCode(...input.take(4)) : (KNOWN_TAGS[index] ?? `#${String(index)}`);
    const version = flags >> 6;
    const origLength = base128(input);
    const transformed = tag === 'glyf' || tag === 'loca' ? version === 0 : version !== 0;
    const length = transformed ? base128(input) : origLength;
    tables.push({ tag, transformed, origLength, length });
  }
  if (tables.some((t) => t.tag === 'CFF ' || t.tag === 'CFF2'))
    throw new Error('CFF fonts are not supported');
  const data = new Uint8Array(brotliDecompressSync(input.take(compressedSize)));
  let offset = 0;
  for (const table of tables) {
    table.data = data.subarray(offset, offset + table.length);
    offset += table.length;
  }

  const byTag = new Map(tables.map((t) => [t.tag, t]));
  const glyfEntry = byTag.get('glyf');
  if (glyfEntry?.transformed) {
    const { glyf, loca } = reconstructGlyf(glyfEntry.data!);
    glyfEntry.data = glyf;
    byTag.get('loca')!.data = loca;
  }
  const head = new Uint8Array(byTag.get('head')!.data!);
  if (glyfEntry?.transformed) new DataView(head.buffer).setInt16(50, 1); // indexToLocFormat: long offsets
  byTag.get('head')!.data = head;
  const hmtx = byTag.get('hmtx');
  if (hmtx?.transformed) {
    const hhea = byTag.get('hhea')!.data!;
    const numHMetrics = new DataView(hhea.buffer, hhea.byteOffset).getUint16(34);
    hmtx.data = reconstructHmtx(hmtx.data!, numHMetrics, glyfEntry!.data!, byTag.get('loca')!.data!);
  }
  return writeSfnt(flavor, new Map(tables.map((t) => [t.tag, t.data!])));
}
