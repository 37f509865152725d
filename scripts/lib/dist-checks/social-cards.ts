/**
 * Social cards: every indexable page names an og:image on the site's origin that is a built 1200×630 PNG,
 * with its alt text, width, height and `twitter:card` summary_large_image; no two pages share a card,
 * by address or by content.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils } from 'htmlparser2';
import { normalisePath, type BuiltSite, type Problem } from './site.ts';

export interface SocialCardOptions {
  origin: string;
  isIndexable: (path: string) => boolean;
  width?: number;
  height?: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, or undefined when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export function checkSocialCards(site: BuiltSite, options: SocialCardOptions): Problem[] {
  const { origin, isIndexable, width = 1200, height = 630 } = options;
  const problems: Problem[] = [];
  const owners = new Map<string, string>();
  for (const page of site.pages.values()) {
    if (!isIndexable(page.path)) continue;
    const meta = new Map<string, string>();
    for (const el of DomUtils.findAll((e) => e.name === 'meta', page.document.children)) {
      const key = el.attribs.property ?? el.attribs.name;
      if (key && !meta.has(key)) meta.set(key, el.attribs.content ?? '');
    }
    const report = (message: string) => problems.push({ page: page.path, message });
    if (meta.get('twitter:card') !== 'summary_large_image') report('twitter:card is not summary_large_image');
    if (!meta.get('og:image:alt')?.trim()) report('og:image has no og:image:alt');
    if (meta.get('og:image:width') !== String(width) || meta.get('og:image:height') !== String(height))
      report(`og:image:width/height are not ${width}×${height}`);
    const image = meta.get('og:image');
    if (!image) {
      report('has no og:image');
      continue;
    }
    const url = new URL(image, origin);
    if (url.origin !== new URL(origin).origin) {
      report(`og:image ${image} is not on ${origin}`);
      continue;
    }
    const path = normalisePath(url.pathname);
    if (!site.files.has(path)) {
      report(`og:image ${image} is not in the build`);
      continue;
    }
    const bytes = readFileSync(join(site.dist, path));
    const size = pngSize(bytes);
    if (!size) report(`og:image ${image} is not a PNG`);
    else if (size.width !== width || size.height !== height)
      report(`og:image ${image} is ${size.width}×${size.height}, not ${width}×${height}`);
    const keys = [`url:${path}`, `sha256:${createHash('sha256').update(bytes).digest('hex')}`];
    const owner = keys.map((key) => owners.get(key)).find(Boolean);
    if (owner) report(`og:image ${image} is the same card as ${owner}'s`);
    else for (const key of keys) owners.set(key, page.path);
  }
  return problems;
}
