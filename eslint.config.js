// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { defineConfig } from 'eslint/config';
import { fileURLToPath } from 'node:url';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every extension the project imports with (imports name the file's own extension, as Node and Vite need). */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.astro'];

export default defineConfig(
  {
    ignores: [
      'dist/',
      '.astro/',
      '.netlify/',
      '.data/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No import circles: data flows one way (route → handler → service → repository → database), and a
    // component never imports its parent. Packages are not followed; only the project's own modules. This rule
    // skips `import type`; dependency-cruiser (.dependency-cruiser.cjs, also in `npm run lint`) counts those.
    files: ['**/*.{ts,tsx,js,mjs,cjs,jsx,astro}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: SOURCE_EXTENSIONS })],
      'import-x/extensions': SOURCE_EXTENSIONS,
      'import-x/parsers': {
        '@typescript-eslint/parser': ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx'],
        [fileURLToPath(new URL('scripts/lib/astro-import-parser.js', import.meta.url))]: ['.astro'],
      },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
