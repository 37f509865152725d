/**
 * Content constants shared by the collection schemas (src/content.config.ts), the pages and the brochure
 * script. Plain TypeScript without `astro:content`, so Node can import it outside a build.
 */

/** The six divisions, in SPEC order; ids match the sector routes (`oil-gas` serves /oil&gas). */
export const DIVISIONS = ['pharma', 'food', 'chemicals', 'electronics', 'energy', 'oil-gas'] as const;

/** What a newsletter subscriber can follow: the six divisions plus company news (stored on the subscriber). */
export const NEWSLETTER_TOPICS = [...DIVISIONS, 'company-news'] as const;

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

/**
 * The one project life cycle, in order; every page that shows how a project runs (home, services, the brochure's
 * copy) names these phases, each titled in `services.json` under `phases.items`.
 */
export const PHASES = ['concept', 'basic', 'detailed', 'construction', 'cqv'] as const;

/** Capital cost bands of a client's project, in EUR million; a case study names its band, never a figure. */
export const INVESTMENT_BANDS = ['under-5', '5-20', '20-50', 'over-50'] as const;

/** Where a referenced plant stands today; labels in `references.json` under `status`. */
export const PROJECT_STATUSES = [
  'in-operation',
  'under-construction',
  'design-complete',
  'study-complete',
] as const;

export type Division = (typeof DIVISIONS)[number];
export type NewsletterTopic = (typeof NEWSLETTER_TOPICS)[number];
export type Service = (typeof SERVICES)[number];
export type Phase = (typeof PHASES)[number];

/** The phases in which each service does its work; the services page draws its phase view from this. */
export const SERVICE_PHASES: Record<Service, readonly Phase[]> = {
  feasibility: ['concept'],
  'basic-design': ['basic'],
  'detailed-design': ['detailed'],
  'gmp-consulting': ['concept', 'basic', 'detailed', 'cqv'],
  'qualification-validation': ['basic', 'detailed', 'construction', 'cqv'],
  'project-management': PHASES,
  permitting: ['concept', 'basic', 'detailed', 'construction'],
  'site-supervision': ['construction', 'cqv'],
};
