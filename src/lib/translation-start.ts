/**
 * How a German twin starts from its English piece (docs/editing.md, "German"): a copy with the same facts —
 * date, author, divisions, tags, images and sources — its relative paths one folder deeper, marked as a draft
 * and with a note to the translator after the front matter. `npm run new:article -- --lang de --from <id>`
 * and the admin's Translate button both start a translation this way.
 */

/** A content file's relative paths (images, MDX imports) as seen from one folder deeper. */
export const deeper = (source: string) =>
  source
    .replace(/^(\s*(?:- )?src: ')\.\.\//gm, '$1../../')
    .replace(/^(import .* from ')\.\.\//gm, '$1../../');

/** The file with `draft: true`, added before the closing fence when it has no draft line. */
export const asDraft = (source: string) =>
  /^draft: (true|false)$/m.test(source)
    ? source.replace(/^draft: (true|false)$/m, 'draft: true')
    : source.replace(/\n---\n/, '\ndraft: true\n---\n');

/** The German twin's first version of the English file at `englishFile` (e.g. src/content/blog/gmp.mdx). */
export function germanStart(englishSource: string, englishFile: string): string {
  const noted = englishSource.replace(
    /\n---\n/,
    `\n---\n\n{/* Übersetzung von ${englishFile}: schreiben Sie Titel, Zusammenfassung, Fachgebiet, Alternativtexte und Text auf Deutsch (docs/editing.md, „Deutsch“); Daten, Bilder und Quellen bleiben. */}\n`,
  );
  return asDraft(deeper(noted));
}
