/**
 * Builds the brochure PDF of each language from the repository's content and writes it where the site
 * serves it (src/lib/brochure.ts). Used by `npm run brochure`, by the Astro integration before every build
 * and dev start, and by the tests.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultLang, languages, type Lang } from '../../../src/i18n/lang.ts';
import { brochures, pdfFacts } from '../../../src/lib/brochure.ts';
import { loadBrochureContent, type BrochureContent } from './content.ts';

export interface BrochureResult {
  lang: Lang;
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
  /** The brochure's language. @default 'en' */
  lang?: Lang;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * A hash of what the PDF is drawn from: the content, the copy of its language and English (src/i18n/locales),
 * this generator's code, the site files it reads (routes, site settings, constants, colour tokens, the mark,
 * the hero drawing) and the lockfile, which pins pdfkit, fontkit and the fonts. Drawing takes pdfkit about
 * 1.5 s of CPU; the build did it before every run.
 */
function inputsKey(root: string, content: BrochureContent): string {
  const hash = createHash('sha256').update(JSON.stringify(content));
  const copy = [...new Set([defaultLang, content.lang])].flatMap((lang) => {
    const dir = join(root, 'src', 'i18n', 'locales', lang);
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => join(dir, name))
      : [];
  });
  const files = [
    ...copy,
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

/**
 * Generates the brochure of a language from the sources under `root` into `file` (default: where the site
 * serves it, public/korvel-brochure.pdf or public/korvel-brochure-de.pdf).
 */
export async function writeBrochure(
  root: string,
  file?: string,
  { cacheDir, lang = defaultLang }: WriteOptions = {},
): Promise<BrochureResult & { cached: boolean; fallbacks: string[] }> {
  file ??= join(root, 'public', brochures[lang].href.slice(1));
  const content = await loadBrochureContent(root, lang);
  const kept = cacheDir ? join(cacheDir, `${inputsKey(root, content)}.pdf`) : undefined;
  const stored = kept && existsSync(kept) ? readFileSync(kept) : undefined;
  // pdfkit and the drawing code load only when the PDF is drawn (0.4 s of every build that found it cached).
  const pdf = stored ?? Buffer.from(await (await import('./render.ts')).renderBrochure(content, { root }));
  if (kept && !stored) {
    mkdirSync(dirname(kept), { recursive: true });
    writeFileSync(kept, pdf);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, pdf);
  return { lang, file, ...pdfFacts(pdf), cached: stored !== undefined, fallbacks: content.fallbacks };
}

/** Generates the brochure of every language where the site serves it, one after another. */
export async function writeBrochures(
  root: string,
  options: Omit<WriteOptions, 'lang'> = {},
): Promise<Array<Awaited<ReturnType<typeof writeBrochure>>>> {
  const results = [];
  for (const lang of languages) results.push(await writeBrochure(root, undefined, { ...options, lang }));
  return results;
}
