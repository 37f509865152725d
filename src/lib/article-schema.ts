/**
 * The front matter of an article or news item: the one schema both the site's build (src/content.config.ts,
 * through Astro's `image()` and `reference('team')`) and the admin's Content tab (src/server/content, with the
 * repository's own images and team ids) validate against. Editorial limits keep cards and feeds tidy.
 */
import { z } from 'astro/zod';
import { DIVISIONS } from '../content/constants.ts';
import type { $ZodType } from 'zod/v4/core';

/** A source in an article's reference list. */
export const citation = z.strictObject({
  title: z.string().min(3),
  publisher: z.string().min(2),
  year: z.number().int().min(1900).max(2100),
  url: z.url({ protocol: /^https$/ }),
});

/** How an image path and an author id are checked: by Astro in the build, against the repository in the admin. */
export interface ArticleContext<I extends $ZodType, A extends $ZodType> {
  image: () => I;
  author: A;
}

/** Articles and news share one shape and one layout. */
export const articleSchema = <I extends $ZodType, A extends $ZodType>({
  image,
  author,
}: ArticleContext<I, A>) =>
  z.strictObject({
    title: z.string().min(10).max(90),
    summary: z.string().min(80).max(240),
    date: z.coerce.date(),
    updated: z.coerce.date().optional(),
    /** The id of a person on the team page (src/content/team/<id>.yaml); the byline links to them. */
    author,
    /** The field the piece belongs to, shown above the title ("Process engineering", "People & culture"). */
    discipline: z.string().min(3),
    /**
     * The divisions the piece is about: the blog's division filter and related articles use them. `[]` for
     * pieces about the firm as a whole (community, people), which the filter lists under All only.
     */
    divisions: z.array(z.enum(DIVISIONS)).max(6),
    /** The slider shows them in order; the first is also the card and Open Graph image. */
    images: z
      .array(
        z.strictObject({
          src: image(),
          alt: z.string().min(10, 'Describe the image in at least 10 characters.').max(160),
          /** Printed over the foot of the picture for everyone (alt text is for people who cannot see it). */
          caption: z.string().min(3).max(200).optional(),
        }),
      )
      .min(3, 'Give at least three images for the slider.'),
    tags: z
      .array(z.string().regex(/^[a-z0-9-]+$/, 'Tags are lower-case words joined by hyphens.'))
      .min(1)
      .max(5),
    references: z.array(citation).optional(),
    /**
     * Drafts build in `npm run dev`, deploy previews and branch deploys only (`showsDrafts`); `npm run
     * new:article` starts every article as one.
     */
    draft: z.boolean().default(false),
  });
