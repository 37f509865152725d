/**
 * The import graph's circles, type-only imports included (`npm run lint`). import-x/no-cycle in
 * eslint.config.js covers `.astro` files but, like TypeScript's emit, skips `import type`; this covers the
 * TypeScript and JavaScript modules with their types, so a component that takes a type from its parent fails
 * too. It cannot read `.astro` files, which is why both run.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Data flows one way (route → handler → service → repository → database); a component never imports its parent.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|\\.astro|\\.netlify|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.json'] },
  },
};
