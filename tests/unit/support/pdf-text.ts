/**
 * The text of a PDF as pdfkit writes it, page by page: Flate streams are inflated, glyph codes in TJ/Tj
 * are mapped back to characters through each font's ToUnicode CMap. Enough for tests, not a PDF reader.
 */
import { inflateSync } from 'node:zlib';

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function objects(pdf: Uint8Array): Map<number, PdfObject> {
  const source = Buffer.from(pdf).toString('latin1');
  const result = new Map<number, PdfObject>();
  for (const match of source.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = match[2]!;
    const streamAt = body.indexOf('stream');
    if (streamAt === -1) {
      result.set(Number(match[1]), { dict: body });
      continue;
    }
    const dict = body.slice(0, streamAt);
    const start = streamAt + 'stream'.length + (body[streamAt + 6] === '\r' ? 2 : 1);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    let stream = Buffer.from(body.slice(start, start + length), 'latin1');
    if (/\/Filter\s*\/FlateDecode/.test(dict)) stream = inflateSync(stream);
    result.set(Number(match[1]), { dict, stream });
  }
  return result;
}

const hexToString = (hex: string) => {
  const codes: number[] = [];
  for (let i = 0; i + 4 <= hex.length; i += 4) codes.push(parseInt(hex.slice(i, i + 4), 16));
  return String.fromCharCode(...codes);
};

/** Glyph code → text, from a ToUnicode CMap's bfrange and bfchar sections. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const [, body = ''] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, target] of body.matchAll(
      /<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f\s]+>)/gi,
    )) {
      const start = parseInt(from!, 16);
      const end = parseInt(to!, 16);
      if (target!.startsWith('[')) {
        const items = [...target!.matchAll(/<([0-9a-f\s]+)>/gi)].map((m) => m[1]!.replace(/\s/g, ''));
        items.forEach((item, i) => map.set(start + i, hexToString(item)));
      } else {
        const base = parseInt(target!.slice(1, -1).replace(/\s/g, ''), 16);
        for (let code = start; code <= end; code++) map.set(code, String.fromCharCode(base + code - start));
      }
    }
  }
  for (const [, body = ''] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, from, target] of body.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f\s]+)>/gi)) {
      map.set(parseInt(from!, 16), hexToString(target!.replace(/\s/g, '')));
    }
  }
  return map;
}

/** The text of every page, in page order, one line per baseline. */
export function pdfPageTexts(pdf: Uint8Array): string[] {
  const all = objects(pdf);
  const fonts = new Map<string, Map<number, string>>();
  for (const { dict } of all.values()) {
    for (const [, name, id] of dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const font = all.get(Number(id));
      const cmapId = /\/ToUnicode (\d+) 0 R/.exec(font?.dict ?? '')?.[1];
      const cmap = cmapId ? all.get(Number(cmapId))?.stream?.toString('latin1') : undefined;
      if (cmap && !fonts.has(name!)) fonts.set(name!, toUnicode(cmap));
    }
  }
  const pagesRoot = [...all.values()].find((o) => /\/Type\s*\/Pages\b/.test(o.dict));
  const kids = [...(/\/Kids\s*\[([^\]]*)\]/.exec(pagesRoot?.dict ?? '')?.[1] ?? '').matchAll(/(\d+) 0 R/g)];
  return kids.map(([, id]) => {
    const page = all.get(Number(id))!;
    const contentIds = [
      ...(/\/Contents\s*(\[[^\]]*\]|\d+ 0 R)/.exec(page.dict)?.[1] ?? '').matchAll(/(\d+) 0 R/g),
    ];
    let text = '';
    let lineY: number | undefined;
    for (const [, contentId] of contentIds) {
      const ops = all.get(Number(contentId))?.stream?.toString('latin1') ?? '';
      let font = new Map<number, string>();
      let y: number | undefined;
      for (const [, tmY, name, shown] of ops.matchAll(
        /[\d.-]+ [\d.-]+ [\d.-]+ [\d.-]+ [\d.-]+ ([\d.-]+) Tm|\/(F\d+) [\d.]+ Tf|(\[[^\]]*\]\s*TJ|<[0-9a-f]*>\s*Tj)/gi,
      )) {
        if (tmY) y = Number(tmY);
        else if (name) font = fonts.get(name) ?? new Map();
        else {
          const shownText = [...shown!.matchAll(/<([0-9a-f]*)>/gi)]
            .flatMap(([, hex]) => hex!.match(/.{4}/g) ?? [])
            .map((code) => font.get(parseInt(code, 16)) ?? '\uFFFD')
            .join('');
          // Fragments set on one baseline (a line continued in another font subset) join up.
          text += (text && y !== lineY ? '\n' : '') + shownText;
          lineY = y;
        }
      }
    }
    return text;
  });
}

/** All text of a PDF with runs of white space made single spaces, for phrase searches. */
export function pdfText(pdf: Uint8Array): string {
  return pdfPageTexts(pdf)
    .join('\n')
    .replace(/[\s\u00a0]+/g, ' ');
}
