/**
 * Builds the brochure PDF from the repository's content and writes it where the site serves it.
 * Used by `npm run brochure`, by the Astro integration before every build and dev start, and by the tests.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brochure, pdfFacts } from '../../../src/lib/brochure.ts';
import { loadBrochureContent, type BrochureContent } from './content.ts';
import { renderBrochure } from './render.ts';

export interface BrochureResult {
  file: string;
  pages: number;
  bytes: number;
}

export interface WriteOptions {
  /**
   * Keep each PDF here under a hash of everything that draws it, and reuse it while nothing has changed
   * (the Astro integration: node_modules/.cache/brochure). Without it the PDF is always drawn.
   */
  cacheDir?: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * A hash of what the PDF is drawn from: the content, this generator's code, the site files it reads
 * (routes, site settings, constants, colour tokens, the mark, the hero drawing) and the lockfile, which
 * pins pdfkit, fontkit and the fonts. Drawing takes pdfkit about 1.5 s of CPU; the build did it before every run.
 */
function inputsKey(root: string, content: BrochureContent): string {
  const hash = createHash('sha256').update(JSON.stringify(content));
  const files = [
    ...readdirSync(here)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(here, name)),
    ...['src/lib/brochure.ts', 'src/routes.ts', 'src/site.config.ts', 'src/content/constants.ts'],
    ...['src/styles/tokens.css', 'public/favicon.svg', 'src/components/art/PlantHero.astro'],
    // pdfkit, fontkit and the fonts: any dependency change draws the PDF again.
    'package-lock.json',
  ].map((file) => (file.startsWith('/') ? file : join(root, file)));
  // Names relative to the root, so a copy of the project (npm run bench:build) finds the same PDF.
  for (const file of files)
    hash.update(relative(root, file)).update(existsSync(file) ? readFileSync(file) : '');
  return hash.digest('hex').slice(0, 32);
}

/** Generates the brochure from the sources under `root` into `file` (default: public/<name>.pdf). */
export async function writeBrochure(
  root: string,
  file = join(root, 'public', brochure.href.slice(1)),
  { cacheDir }: WriteOptions = {},
): Promise<BrochureResult & { cached: boolean }> {
  const content = await loadBrochureContent(root);
  const kept = cacheDir ? join(cacheDir, `${inputsKey(root, content)}.pdf`) : undefined;
  const stored = kept && existsSync(kept) ? readFileSync(kept) : undefined;
  const pdf = stored ?? Buffer.from(await renderBrochure(content, { root }));
  if (kept && !stored) {
    mkdirSync(dirname(kept), { recursive: true });
    writeFileSync(kept, pdf);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, pdf);
  return { file, ...pdfFacts(pdf), cached: stored !== undefined };
}
