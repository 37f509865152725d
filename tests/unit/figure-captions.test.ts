/**
 * A picture in the text with a caption, `![alt](src "caption")` as the Content tab's picture dialog writes it,
 * is a figure on the site (src/lib/figure-plugin.ts): the caption in its <figcaption>, the alt text on the
 * picture, and the picture still the one Astro's image pipeline optimises (its marker survives the plugin), in
 * Markdown and in MDX, the format of articles and news.
 */
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import { markdownToHtml, mdxToJs } from 'satteri';
import { describe, expect, test } from 'vitest';
import { figureCaptions } from '../../src/lib/figure-plugin.ts';

const ALT = 'Tablet press with the feed frame opened for cleaning';
const CAPTION = 'The press after its weekly clean';
const html = (markdown: string) => markdownToHtml(markdown, { hastPlugins: [figureCaptions] }).html.trim();

describe('figureCaptions', () => {
  test('the caption goes into <figcaption>, the alt text stays the picture’s, the title leaves the <img>', () => {
    expect(html(`![${ALT}](./press.png "${CAPTION}")`)).toBe(
      `<figure class="prose-figure"><img src="./press.png" alt="${ALT}"><figcaption>${CAPTION}</figcaption></figure>`,
    );
  });

  test('a picture without a caption, or one inside a sentence, stays as it was', () => {
    expect(html(`![${ALT}](./press.png)`)).toBe(`<p><img src="./press.png" alt="${ALT}"></p>`);
    expect(html(`See ![${ALT}](./press.png "${CAPTION}") here.`)).toBe(
      `<p>See <img src="./press.png" alt="${ALT}" title="${CAPTION}"> here.</p>`,
    );
  });

  test('in Astro’s processor the captioned picture still goes through the image pipeline', async () => {
    const processor = await createSatteriMarkdownProcessor({ hastPlugins: [figureCaptions] });
    const { code, metadata } = await processor.render(`![${ALT}](./press.png "${CAPTION}")\n`);
    expect(metadata.localImagePaths).toEqual(['./press.png']);
    expect(code).toMatch(/^<figure class="prose-figure"><img __ASTRO_IMAGE_="[^"]+"><figcaption>/);
    expect(code).toContain(`<figcaption>${CAPTION}</figcaption></figure>`);
    expect(code).toContain('&quot;alt&quot;:&quot;Tablet press');
    expect(code).not.toContain('&quot;title&quot;');
  });

  test('in an MDX entry, the articles’ format, the picture is wrapped the same way', async () => {
    const { code } = await mdxToJs(`Intro.\n\n![${ALT}](./press.png "${CAPTION}")\n`, {
      hastPlugins: [figureCaptions],
    });
    expect(code).toMatch(
      /_jsxs\(_components\.figure, \{\s*className: "prose-figure",\s*children: \[_jsx\(_components\.img, \{[^}]*alt: "Tablet press/,
    );
    expect(code).toContain(`_jsx(_components.figcaption, { children: "${CAPTION}" })`);
    expect(code).not.toContain('title:');
  });
});
