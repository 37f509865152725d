/** Page addresses and file names from titles: one rule for `npm run new:article`, the admin and its uploads. */

/**
 * A plain slug: letters without accents, lower case, digits, joined by single hyphens, at most `max` long.
 * @example slugify('Đurđevdan in Niš: Straße') → 'djurdjevdan-in-nis-strasse'
 */
export function slugify(text: string, max = 80): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'dj')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}
