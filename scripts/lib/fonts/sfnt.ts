/**
 * Reading and writing TrueType (sfnt) files: a table directory, big-endian numbers and simple glyphs.
 * Shared by the WOFF2 decoder and the variable-font instancer.
 */

/** A forward-only reader over big-endian bytes. */
export class Reader {
  pos = 0;
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8(): number {
    return this.view.getUint8(this.pos++);
  }
  u16(): number {
    const value = this.view.getUint16(this.pos);
    this.pos += 2;
    return value;
  }
  i16(): number {
    const value = this.view.getInt16(this.pos);
    this.pos += 2;
    return value;
  }
  u32(): number {
    const value = this.view.getUint32(this.pos);
    this.pos += 4;
    return value;
  }
  take(length: number): Uint8Array {
    if (this.pos + length > this.bytes.length) throw new Error('font data ends early');
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }
}

/** A growing big-endian byte buffer. */
export class Writer {
  private bytes = new Uint8Array(1024);
  length = 0;
  private room(extra: number) {
    if (this.length + extra <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
  u8(value: number) {
    this.room(1);
    this.bytes[this.length++] = value & 0xff;
  }
  u16(value: number) {
    this.u8(value >> 8);
    this.u8(value);
  }
  u32(value: number) {
    this.u16(Math.floor(value / 0x10000) & 0xffff);
    this.u16(value & 0xffff);
  }
  raw(data: Uint8Array) {
    this.room(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }
  pad(multiple: number) {
    while (this.length % multiple) this.u8(0);
  }
  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

export interface Point {
  x: number;
  y: number;
  onCurve: boolean;
}

/**
 * A simple glyph in TrueType form. Every coordinate is written as a 16-bit delta: larger than the packed
 * form, and read the same by every rasteriser.
 */
export function encodeSimpleGlyph(
  endPoints: number[],
  points: Point[],
  instructions: Uint8Array,
  bbox: number[],
  overlap = false,
): Uint8Array {
  const out = new Writer();
  out.u16(endPoints.length);
  for (const value of bbox) out.u16(value & 0xffff);
  for (const end of endPoints) out.u16(end);
  out.u16(instructions.length);
  out.raw(instructions);
  points.forEach((point, i) => out.u8((point.onCurve ? 0x01 : 0) | (overlap && i === 0 ? 0x40 : 0)));
  for (const axis of ['x', 'y'] as const) {
    let previous = 0;
    for (const point of points) {
      out.u16((point[axis] - previous) & 0xffff);
      previous = point[axis];
    }
  }
  return out.result();
}

export function checksum(data: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(data.length / 4) * 4);
  padded.set(data);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  return sum;
}

/** The tables of a TrueType file by tag. */
export function readSfnt(font: Uint8Array): { flavor: number; tables: Map<string, Uint8Array> } {
  const input = new Reader(font);
  const flavor = input.u32();
  const count = input.u16();
  input.take(6);
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const tag = String.fromCharCode(...input.take(4));
    input.u32(); // checksum
    const offset = input.u32();
    const length = input.u32();
    tables.set(tag, font.subarray(offset, offset + length));
  }
  return { flavor, tables };
}

/** Writes a TrueType file: sorted directory, 4-byte aligned tables, head.checkSumAdjustment set. */
export function writeSfnt(flavor: number, tables: Map<string, Uint8Array>): Uint8Array {
  const sorted = [...tables.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const head = tables.get('head');
  if (!head) throw new Error('a TrueType font needs a head table');
  const headCopy = new Uint8Array(head);
  new DataView(headCopy.buffer).setUint32(8, 0);
  const out = new Writer();
  const entrySelector = Math.floor(Math.log2(sorted.length));
  const searchRange = 2 ** entrySelector * 16;
  out.u32(flavor);
  out.u16(sorted.length);
  out.u16(searchRange);
  out.u16(entrySelector);
  out.u16(sorted.length * 16 - searchRange);
  let offset = 12 + sorted.length * 16;
  let headOffset = 0;
  const data = sorted.map(([tag, bytes]) => [tag, tag === 'head' ? headCopy : bytes] as const);
  for (const [tag, bytes] of data) {
    for (let i = 0; i < 4; i++) out.u8(tag.charCodeAt(i));
    out.u32(checksum(bytes));
    out.u32(offset);
    out.u32(bytes.length);
    if (tag === 'head') headOffset = offset;
    offset += Math.ceil(bytes.length / 4) * 4;
  }
  for (const [, bytes] of data) {
    out.raw(bytes);
    out.pad(4);
  }
  const font = out.result();
  new DataView(font.buffer).setUint32(headOffset + 8, (0xb1b0afba - checksum(font)) >>> 0);
  return font;
}

/**
 * A copy of a name table with some name ids replaced (Windows Unicode and Mac Roman records alike).
 * @example renameFont(nameTable, { 2: 'SemiBold', 6: 'IBMPlexSans-SemiBold' })
 */
export function renameFont(table: Uint8Array, names: Record<number, string>): Uint8Array {
  const input = new Reader(table);
  input.u16(); // format
  const count = input.u16();
  const storage = input.u16();
  const records = Array.from({ length: count }, () => {
    const [platform, encoding, language, id, length, offset] = Array.from({ length: 6 }, () =>
      input.u16(),
    ) as [number, number, number, number, number, number];
    const replacement = names[id];
    let bytes = table.subarray(storage + offset, storage + offset + length);
    if (replacement !== undefined) {
      const wide = platform === 0 || platform === 3;
      const out = new Writer();
      for (const char of replacement) {
        if (wide) out.u16(char.charCodeAt(0));
        else out.u8(char.charCodeAt(0));
      }
      bytes = out.result();
    }
    return { platform, encoding, language, id, bytes };
  });
  const out = new Writer();
  out.u16(0); // format 0: no language-tag records
  out.u16(records.length);
  out.u16(6 + records.length * 12);
  let offset = 0;
  for (const record of records) {
    for (const value of [
      record.platform,
      record.encoding,
      record.language,
      record.id,
      record.bytes.length,
      offset,
    ]) {
      out.u16(value);
    }
    offset += record.bytes.length;
  }
  for (const record of records) out.raw(record.bytes);
  return out.result();
}
