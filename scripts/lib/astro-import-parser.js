/**
 * astro-eslint-parser as import-x reads a dependency with it (eslint.config.js, `import-x/parsers`): import-x
 * asks for no tokens and no comments to save time, and astro-eslint-parser needs both to sort its nodes; and
 * the frontmatter is TypeScript. Only the circle check parses imported `.astro` files this way; ESLint's own
 * pass over an `.astro` file uses the parser as eslint-plugin-astro configures it.
 */
import { parseForESLint as parseAstro } from 'astro-eslint-parser';
import tseslint from 'typescript-eslint';

/** @param {string} code @param {Record<string, unknown>} options */
export const parseForESLint = (code, options) =>
  parseAstro(code, { ...options, parser: tseslint.parser, tokens: true, comment: true });
