/** The rule for "selected references": exactly one reference per division carries `featured: true`. */

export interface Featurable {
  division: string;
  featured: boolean;
}

/**
 * One featured reference per division, in the order of `divisions`. Throws, naming the division, when a
 * division has none or more than one, so the home page never silently drops or doubles a division.
 * @example featuredPerDivision([{ division: 'food', featured: true }], ['food']) // [{ division: 'food', … }]
 */
export function featuredPerDivision<T extends Featurable>(
  references: readonly T[],
  divisions: readonly string[],
): T[] {
  return divisions.map((division) => {
    const featured = references.filter((r) => r.division === division && r.featured);
    if (featured.length !== 1) {
      throw new Error(
        `Division "${division}" needs exactly one reference with featured: true in src/content/references, found ${featured.length}.`,
      );
    }
    return featured[0]!;
  });
}
