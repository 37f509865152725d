/**
 * A Sätteri hast plugin for Markdown and MDX (astro.config.mjs): a picture alone in its paragraph with a title,
 * `![Alt text](./photo.jpg "Caption")`, becomes `<figure>` with the picture and the title in its `<figcaption>`,
 * the markup the article slider gives a captioned picture (src/components/ImageSlider.astro). The alt
 * text stays the picture's; the title leaves the `<img>`, so the caption is not read twice or shown as a
 * tooltip. The picture is still the `<img>` Astro's image pipeline turns into its optimised one afterwards.
 */
import type { Element, ElementContent } from 'hast';
import { defineHastPlugin } from 'satteri';

/** The picture with a caption that makes up the whole paragraph, if that is what `node` holds. */
function captionedPicture(children: readonly ElementContent[]): { img: Element; caption: string } | null {
  // A paragraph of prose is one text node or several; only one with an element can hold a picture, and its
  // text is read only then (Sätteri hands plugins the tree lazily: every text read crosses into its parser).
  const img = children.find((child) => child.type !== 'text');
  if (img?.type !== 'element' || img.tagName !== 'img') return null;
  if (children.some((child) => child !== img && !(child.type === 'text' && child.value.trim() === '')))
    return null;
  const caption = typeof img.properties.title === 'string' ? img.properties.title.trim() : '';
  return caption ? { img, caption } : null;
}

export const figureCaptions = defineHastPlugin({
  name: 'figure-captions',
  element: {
    filter: ['p'],
    visit(node, ctx) {
      const found = captionedPicture(node.children);
      if (!found) return;
      const { title: _title, ...properties } = found.img.properties;
      ctx.replaceNode(node, {
        type: 'element',
        tagName: 'figure',
        properties: { className: ['prose-figure'] },
        children: [
          { ...found.img, properties },
          {
            type: 'element',
            tagName: 'figcaption',
            properties: {},
            children: [{ type: 'text', value: found.caption }],
          },
        ],
      });
    },
  },
});
