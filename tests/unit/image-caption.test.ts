/**
 * A picture's caption (issue 37, item 3): the Content tab stores it in the image's front matter entry, the
 * collection's schema accepts it, and the article's slider prints it in the picture's <figcaption>
 * (src/components/ImageSlider.astro; tests/unit/image-slider.test.ts keeps it with its picture as the slider
 * steps). A picture without a caption renders as before.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'astro/zod';
import { articleSchema } from '../../src/lib/article-schema.ts';
import {
  frontmatterOf,
  joinSource,
  splitSource,
  updateFrontmatter,
} from '../../src/server/content/pieces.ts';

describe('the image schema', () => {
  const schema = articleSchema({ image: () => z.string(), author: z.string() }).shape.images;
  const images = (caption?: string) =>
    [1, 2, 3].map((n) => ({ src: `${n}.svg`, alt: `Drawing number ${n} of the loop`, caption }));

  test('takes an optional caption of 3 to 200 characters', () => {
    expect(schema.safeParse(images()).success).toBe(true);
    expect(schema.safeParse(images('The loop after passivation')).success).toBe(true);
    expect(schema.safeParse(images('ab')).success).toBe(false);
    expect(schema.safeParse(images('x'.repeat(201))).success).toBe(false);
  });
});

describe('a caption saved in the Content tab', () => {
  const file = readFileSync('src/content/blog/gmp.mdx', 'utf8');
  const source = splitSource(file);

  test('adds one line under its picture and changes nothing else', () => {
    const data = frontmatterOf(source.yaml);
    const images = data.images as { src: string; alt: string; caption?: string }[];
    const withCaption = images.map((image, i) =>
      i === 1 ? { ...image, caption: 'A caption the test gave it' } : image,
    );
    // The browser sends the form's data as JSON, as the Content tab does.
    const sent = JSON.parse(JSON.stringify({ ...data, images: withCaption })) as typeof data;
    const saved = updateFrontmatter(source.yaml, sent);
    const before = source.yaml.split('\n');
    const after = saved.split('\n');
    expect(after).toHaveLength(before.length + 1);
    const added = after.findIndex((line, i) => line !== before[i]);
    expect(after[added]).toBe("    caption: 'A caption the test gave it'");
    expect([...after.slice(0, added), ...after.slice(added + 1)]).toEqual(before);
    expect(frontmatterOf(saved).images).toEqual(withCaption);
    // Cleared again (the form sends no caption key): the file is as it was.
    expect(joinSource({ yaml: updateFrontmatter(saved, data), body: source.body })).toBe(file);
  });
});
