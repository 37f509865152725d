/**
 * A Sätteri hast plugin for Markdown and MDX (astro.config.mjs): wraps each designation in prose
 * (src/lib/unbroken.ts) in `<span class="unbroken">`, so "ISO 14644-1" never breaks after its hyphen.
 * Code, preformatted text and drawings are left as they are.
 */
import type { Element, Parents, Text } from 'hast';
import { defineHastPlugin } from 'satteri';
import { splitDesignations, UNBROKEN_CLASS } from './unbroken.ts';

const UNTOUCHED = new Set(['code', 'pre', 'script', 'style', 'svg', 'math']);

export const unbrokenDesignations = defineHastPlugin({
  name: 'unbroken-designations',
  text(node, ctx) {
    const segments = splitDesignations(node.value);
    if (!segments.some((segment) => segment.unbroken)) return;
    let parent: Readonly<Parents> | undefined = ctx.parent(node);
    for (; parent; parent = ctx.parent(parent))
      if (parent.type === 'element' && UNTOUCHED.has(parent.tagName)) return;
    ctx.replaceNode(
      node,
      segments.map(({ text, unbroken }): Element | Text =>
        unbroken
          ? {
              type: 'element',
              tagName: 'span',
              properties: { className: [UNBROKEN_CLASS] },
              children: [{ type: 'text', value: text }],
            }
          : { type: 'text', value: text },
      ),
    );
  },
});
