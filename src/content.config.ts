/**
 * Every content collection and its schema. A malformed entry fails the build with Astro's message, which
 * names the collection, the file and the field (tests/unit/content-schema.test.ts proves it).
 */
import { defineCollection, type SchemaContext } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const reference = z.object({
  title: z.string().min(3),
  publisher: z.string().min(2),
  year: z.number().int().min(1900).max(2100),
  url: z.url({ protocol: /^https$/ }),
});

/** Articles and news share one shape and one layout. Editorial limits keep cards and feeds tidy. */
const article = ({ image }: SchemaContext) =>
  z.object({
    title: z.string().min(10).max(90),
    summary: z.string().min(80).max(240),
    date: z.coerce.date(),
    updated: z.coerce.date().optional(),
    author: z.string().min(3),
    discipline: z.string().min(3),
    /** The slider shows them in order; the first is also the card and Open Graph image. */
    images: z
      .array(
        z.object({
          src: image(),
          alt: z.string().min(10, 'Describe the image in at least 10 characters.').max(160),
        }),
      )
      .min(3, 'Give at least three images for the slider.'),
    tags: z
      .array(z.string().regex(/^[a-z0-9-]+$/, 'Tags are lower-case words joined by hyphens.'))
      .min(1)
      .max(5),
    references: z.array(reference).optional(),
    /** Drafts build in `npm run dev` only; `npm run new:article` starts every article as one. */
    draft: z.boolean().default(false),
  });

export const collections = {
  blog: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/blog' }), schema: article }),
  news: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/news' }), schema: article }),
};
