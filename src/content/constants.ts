/**
 * Content constants shared by the collection schemas (src/content.config.ts), the pages and the brochure
 * script. Plain TypeScript without `astro:content`, so Node can import it outside a build.
 */

/** The six divisions, in SPEC order; ids match the sector routes (`oil-gas` serves /oil&gas). */
export const DIVISIONS = ['pharma', 'food', 'chemicals', 'electronics', 'energy', 'oil-gas'] as const;

/** What Korvel delivers; references and the services chart use these keys, i18n holds their names. */
export const SERVICES = [
  'feasibility',
  'basic-design',
  'detailed-design',
  'gmp-consulting',
  'qualification-validation',
  'project-management',
  'permitting',
  'site-supervision',
] as const;

export type Division = (typeof DIVISIONS)[number];
export type Service = (typeof SERVICES)[number];
