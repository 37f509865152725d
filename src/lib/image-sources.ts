/**
 * Where a built image came from. Astro names the copy of a source in dist `/_astro/<name>.<hash>.<ext>` and an
 * image derived from it `/_astro/<name>.<hash>_<transform>.<ext>`; at render time the image service only sees
 * the first (a clone of the image's metadata, without its path), so it looks the file up in src/ by name.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

const IMAGE = /\.(svg|png|jpe?g|webp|avif|gif)$/i;
let index: Map<string, string[]> | undefined;

function walk(dir: string, into: Map<string, string[]>) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, into);
    else if (IMAGE.test(name)) {
      const stem = basename(name, extname(name));
      into.set(stem, [...(into.get(stem) ?? []), path]);
    }
  }
  return into;
}

/** The files under `srcDir` named like the built image at `url` (`/_astro/oil-gas.Cpd-38BO.svg`). */
export function sourceCandidates(url: string, srcDir: string): string[] {
  index ??= walk(srcDir, new Map());
  const name = basename(url.replace(/\?.*$/, ''));
  const stem = /^(.+)\.[\w-]{8}\.[a-z0-9]+$/i.exec(name)?.[1];
  return stem ? (index.get(stem) ?? []) : [];
}
