/**
 * Images: no image the build derived is larger than the source it replaces. Astro copies a source into dist as
 * `/_astro/<name>.<hash>.<ext>` and names what it derives from it `/_astro/<name>.<hash>_<transform>.<ext>`;
 * the image service (src/lib/image-service.ts) keeps a source's own format wherever the derived one would be
 * larger, and this gate holds every derived file to that against the copy of its source.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { BuiltSite, Problem } from './site.ts';

const DERIVED = /^(\/_astro\/[^/]+?\.[\w-]{8})_[\w-]+\.(?:avif|webp|png|jpe?g|gif|svg)$/;

export function checkImageSizes(site: BuiltSite): Problem[] {
  const sources = new Map<string, string>();
  for (const file of site.files) {
    const copy = /^(\/_astro\/[^/]+?\.[\w-]{8})\.(?:avif|webp|png|jpe?g|gif|svg)$/.exec(file);
    if (copy) sources.set(copy[1]!, file);
  }
  const size = (file: string) => statSync(join(site.dist, file)).size;
  const problems: Problem[] = [];
  for (const file of site.files) {
    const derived = DERIVED.exec(file);
    if (!derived) continue;
    const source = sources.get(derived[1]!);
    if (!source) {
      problems.push({
        page: file,
        message: 'a derived image without the copy of its source to compare with',
      });
      continue;
    }
    if (size(file) > size(source))
      problems.push({
        page: file,
        message: `${size(file)} bytes, larger than its source ${source} (${size(source)} bytes)`,
      });
  }
  return problems;
}
