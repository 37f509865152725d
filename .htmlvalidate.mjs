/**
 * html-validate over the built pages (`npm test` runs it on dist/ through scripts/check-dist.ts).
 * The recommended preset, with the few rules below configured for markup we write on purpose.
 * @type {import('html-validate').ConfigData}
 */
export default {
  root: true,
  extends: ['html-validate:recommended'],
  elements: [
    'html5',
    {
      // Astro writes `<style>astro-island,astro-slot{display:contents}</style>` in <body> before the first
      // island of a page. Browsers apply a <style> wherever it is; only the content model forbids it there.
      style: { flow: true },
    },
  ],
  rules: {
    // `role="list"` on styled lists is deliberate: Safari drops list semantics from `list-style: none`.
    'no-redundant-role': ['error', { exclude: ['list'] }],
    // A wide table scrolls in a focusable `<div role="region">` (the accessible scroll-container pattern);
    // it is a viewport for the table, not a section of the document.
    'prefer-native-element': ['error', { exclude: ['region'] }],
    // Pages mix Astro's HTML serialisation (`<img>`, `required`) with React's (`<img/>`, `required=""`) and
    // React writes DOM property names (`maxLength`, `autoComplete`). All are valid HTML; only style differs.
    'void-style': 'off',
    'attribute-boolean-style': 'off',
    'attr-case': ['error', { style: ['lowercase', 'camelcase'] }],
    // React's useId() gives ids like `_r1R_0_-email`: valid HTML (no whitespace), not a letter first.
    'valid-id': ['error', { relaxed: true }],
    // Article titles may run to 90 characters (src/content.config.ts) plus " | Korvel Engineering".
    'long-title': ['error', { maxlength: 115 }],
  },
};
