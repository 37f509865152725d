/**
 * Every content collection and its schema. A malformed entry fails the build with Astro's message, which
 * names the collection, the file and the field (tests/unit/content-schema.test.ts proves it).
 */
import { defineCollection, reference, type SchemaContext } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { DIVISIONS, INVESTMENT_BANDS, PROJECT_STATUSES, SERVICES } from './content/constants.ts';
import { articleSchema } from './lib/article-schema.ts';

/** Articles and news share one shape and one layout (src/lib/article-schema.ts, also the admin's Content tab's). */
const article = ({ image }: SchemaContext) => articleSchema({ image, author: reference('team') });

export { DIVISIONS, SERVICES };

/** An illustration from src/assets with the sentence a screen reader reads instead of it. */
const illustration = ({ image }: SchemaContext) =>
  z.strictObject({
    src: image(),
    alt: z.string().min(20, 'Describe the drawing in at least 20 characters.').max(200),
  });

/**
 * A division page: everything it shows comes from here and the MDX body (the themed sections). Strict, so a
 * misspelt field fails the build instead of silently falling back.
 */
const sector = (context: SchemaContext) =>
  z.strictObject({
    title: z.string().min(10).max(90),
    /** The division's short name: above the title, on cards, in "Other divisions" and on /our-references. */
    eyebrow: z.string().min(3).max(40),
    intro: z.string().min(120).max(360),
    /** One sentence for cards, link lists and the meta description. */
    summary: z.string().min(80).max(170),
    order: z.number().int().min(1).max(6),
    /** Four short facts shown beside the body. */
    highlights: z.array(z.string().min(10).max(90)).length(4),
    image: illustration(context),
    /** A market-size series with its source line (electronics, 2024–2030). */
    market: z
      .object({
        title: z.string().min(10),
        unit: z.string().min(2),
        source: z.string().min(10),
        sourceUrl: z.url({ protocol: /^https$/ }).optional(),
        points: z
          .array(
            z.object({
              year: z.number().int().min(2000).max(2100),
              value: z.number().positive(),
              /** Our own projection, not the source's figure; the chart and its table label the year "(est.)". */
              extrapolated: z.boolean().optional(),
            }),
          )
          .min(4),
      })
      .optional(),
  });

const projectReference = z.object({
  title: z.string().min(10).max(100),
  description: z.string().min(60).max(280),
  division: z.enum(DIVISIONS),
  year: z.number().int().min(2008).max(2030),
  durationMonths: z.number().int().min(1).max(72),
  services: z.array(z.enum(SERVICES)).min(1),
  outcome: z.string().min(20).max(200),
  /** Who the client is, described without naming them. */
  client: z.string().min(10).max(120),
  country: z.string().min(2).max(60),
  /** False for projects our engineers delivered before or outside the Korvel brand (the page's disclaimer). */
  deliveredUnderBrand: z.boolean(),
  /** Shown on the home page and its division's page; one per division (tests/unit/featured-references.test.ts). */
  featured: z.boolean().default(false),
  /** Up to two articles (ids in src/content/blog) that tell the story behind the project; its card links them. */
  articles: z.array(reference('blog')).max(2).optional(),
  // The case study on /our-references/<file name> (docs/editing.md, "Project references"). `outcome` stays
  // the headline, shown first; these tell the story behind it and fill the project-facts box.
  /** The client's problem, 2–4 sentences. */
  challenge: z.string().min(200).max(900),
  /** What Korvel did, in 2–4 paragraphs (each one string). */
  approach: z.array(z.string().min(80).max(700)).min(2).max(4),
  /** The measurable result and what it meant for the client, 2–4 sentences. */
  result: z.string().min(150).max(800),
  /** Korvel's role, e.g. "Design engineer of record and CQV lead". */
  role: z.string().min(10).max(120),
  /** Scope items, each a short noun phrase. */
  scope: z.array(z.string().min(3).max(90)).min(2).max(6),
  /** Plant size or capacity with units (SI, thin spaces), e.g. "1 400 m² laboratory; 60 instruments qualified". */
  capacity: z.string().min(5).max(140),
  /** Capital cost band of the client's project in EUR million. */
  investment: z.enum(INVESTMENT_BANDS),
  /** Standards and guidelines the project met, e.g. "EU GMP Annex 15", "ISPE Baseline Guide Vol. 5", "ATEX 2014/34/EU". */
  standards: z.array(z.string().min(3).max(80)).min(1).max(6),
  /** Where the plant stands today. */
  status: z.enum(PROJECT_STATUSES),
});

const initiative = (context: SchemaContext) =>
  z.object({
    title: z.string().min(5).max(90),
    eyebrow: z.string().min(3).max(40),
    summary: z.string().min(80).max(260),
    audience: z.array(z.string().min(10).max(140)).min(2).max(5),
    engage: z.array(z.string().min(10).max(200)).min(2).max(5),
    order: z.number().int().min(1).max(5),
    image: illustration(context),
  });

/** Where a person sits on /about-us/our-team; the page shows the groups in this order. */
export const TEAM_GROUPS = ['leadership', 'process', 'facility', 'automation-quality'] as const;

/** Engineering disciplines people are listed under; names live in `team.json`. */
export const DISCIPLINES = [
  'project-management',
  'process',
  'piping',
  'hvac-cleanrooms',
  'architecture',
  'electrical',
  'automation',
  'validation',
  'gmp',
  'permitting',
] as const;

const currentYear = new Date().getFullYear();

/** One person on the team page. Portraits are drawn (SVG line art in src/assets/team/), never photos. */
const teamMember = ({ image }: SchemaContext) =>
  z
    .object({
      name: z.string().min(5).max(60),
      role: z.string().min(5).max(70),
      discipline: z.enum(DISCIPLINES),
      group: z.enum(TEAM_GROUPS),
      divisions: z.array(z.enum(DIVISIONS)).min(1).max(6),
      /** Year the person joined Korvel. */
      joined: z.number().int().min(2010).max(currentYear),
      /** Year the person started working as an engineer, so the page never shows a stale "N years". */
      inIndustrySince: z.number().int().min(1970).max(currentYear),
      bio: z.string().min(120, 'Write a bio of at least 120 characters.').max(420),
      portrait: z.object({
        // While content syncs, an image is still its path; in a page it is metadata. Either ends in .svg.
        src: image().refine(
          (img: unknown) => /\.svg$/.test(typeof img === 'string' ? img : (img as { src: string }).src),
          'Portraits are drawn SVG line art (src/assets/team/*.svg), not photos.',
        ),
        alt: z.string().min(20, 'Describe the drawn portrait in at least 20 characters.').max(160),
      }),
      /** Position within the group, smallest first. */
      order: z.number().int().min(1).max(99),
      /** The division this person leads; each division has exactly one lead (tests/unit/company-story.test.ts). */
      leads: z.enum(DIVISIONS).optional(),
    })
    .refine((member) => member.inIndustrySince <= member.joined, {
      message: 'inIndustrySince cannot be later than joined.',
      path: ['inIndustrySince'],
    });

/** Legal documents (privacy policy, terms); the page prints title, intro and the date they took effect. */
const legal = z.object({
  title: z.string().min(5).max(60),
  description: z.string().min(80).max(200),
  eyebrow: z.string().min(3).max(30),
  intro: z.string().min(120).max(480),
  lastUpdated: z.coerce.date(),
  /** Stored with each contact inquiry, so we know which wording a person agreed to. */
  version: z
    .string()
    .regex(/^[a-z]+-\d{4}-\d{2}(-\d{2})?$/, 'Use a version such as privacy-2026-11 or privacy-2026-11-25.'),
});

/**
 * What a service on /our-services points to as proof (src/content/services.yaml, keyed by the ids in SERVICES):
 * the person who leads it and two or three projects and articles. Its copy stays in services.json.
 */
const serviceProof = z.strictObject({
  lead: reference('team'),
  references: z.array(reference('references')).min(2).max(3),
  articles: z.array(reference('blog')).min(2).max(3),
});

export const collections = {
  blog: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/blog' }), schema: article }),
  news: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/news' }), schema: article }),
  sectors: defineCollection({
    loader: glob({ pattern: '*.mdx', base: './src/content/sectors' }),
    schema: sector,
  }),
  references: defineCollection({
    loader: glob({ pattern: '*.yaml', base: './src/content/references' }),
    schema: projectReference,
  }),
  initiatives: defineCollection({
    loader: glob({ pattern: '*.mdx', base: './src/content/initiatives' }),
    schema: initiative,
  }),
  team: defineCollection({
    loader: glob({ pattern: '*.yaml', base: './src/content/team' }),
    schema: teamMember,
  }),
  legal: defineCollection({
    loader: glob({ pattern: '*.mdx', base: './src/content/legal' }),
    schema: legal,
  }),
  services: defineCollection({ loader: file('src/content/services.yaml'), schema: serviceProof }),
  // German (issue 25): src/content/de/<collection>/<same id>, the same schema, text in German and every other
  // field as in the English entry (tests/unit/content-parity.test.ts). An entry without its German file has
  // no /de page: articles and news are then listed on German pages with an "auf Englisch" mark.
  blog_de: german('blog', '*.mdx', article),
  news_de: german('news', '*.mdx', article),
  sectors_de: german('sectors', '*.mdx', sector),
  references_de: german('references', '*.yaml', projectReference),
  initiatives_de: german('initiatives', '*.mdx', initiative),
  team_de: german('team', '*.yaml', teamMember),
  legal_de: german('legal', '*.mdx', legal),
};

/** A German twin of an English collection, read from src/content/de/<name>. */
function german<S extends Parameters<typeof defineCollection>[0]['schema']>(
  name: string,
  pattern: string,
  schema: S,
) {
  return defineCollection({ loader: glob({ pattern, base: `./src/content/de/${name}` }), schema });
}
