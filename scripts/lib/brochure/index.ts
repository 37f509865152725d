/**
 * Builds the brochure PDF from the repository's content and writes it where the site serves it.
 * Used by `npm run brochure`, by the Astro integration before every build and dev start, and by the tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brochure, pdfFacts } from '../../../src/lib/brochure.ts';
import { loadBrochureContent } from './content.ts';
import { renderBrochure } from './render.ts';

export interface BrochureResult {
  file: string;
  pages: number;
  bytes: number;
}

/** Generates the brochure from the sources under `root` into `file` (default: public/<name>.pdf). */
export async function writeBrochure(
  root: string,
  file = join(root, 'public', brochure.href.slice(1)),
): Promise<BrochureResult> {
  const content = await loadBrochureContent(root);
  const pdf = await renderBrochure(content, { root });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, pdf);
  return { file, ...pdfFacts(pdf) };
}
