/**
 * A Vite plugin for the client build: dynamic imports without Vite's preload helper.
 *
 * Vite wraps every `import()` in the browser build in `__vitePreload(() => import(…), deps)`, which adds
 * `<link rel="modulepreload">` for the imported chunk's own imports and loads its CSS. The helper (0.9 KB gzip)
 * is a static import of every script that loads code lazily, so it counted against each page's eager
 * JavaScript budget. This site needs neither of its jobs: Astro inlines every component's CSS into the page
 * (`inlineStylesheets: 'always'`), and `modulePreload: false` (set here) leaves the JavaScript dependency lists empty
 * (a lazily loaded chunk fetches its own imports, one round trip later). With an empty list the helper only
 * calls the import, so each chunk whose calls all pass `[]` gets a one-line stand-in for it instead, and the
 * helper's chunk is dropped once nothing imports it. A chunk that still preloads something (`__vite__mapDeps`,
 * e.g. CSS a future lazy import brings) keeps the real helper.
 */
import { basename } from 'node:path';
import type { Plugin } from 'vite';

const HELPER_FILE = /(?:^|\/)preload-helper\.[\w-]+\.js$/;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `import{t as e}from"./preload-helper.abc123.js";` as Rolldown writes it, minified or not. */
const helperImport = (file: string) =>
  new RegExp(
    String.raw`import\s*\{\s*([\w$]+)(?:\s+as\s+([\w$]+))?\s*\}\s*from\s*["'][^"']*\/` +
      `${escape(basename(file))}["'];?`,
  );

export function plainDynamicImports(): Plugin {
  return {
    name: 'korvel:plain-dynamic-imports',
    apply: 'build',
    // Astro sets the build's `modulePreload` itself, so the browser environment gets `false` here.
    configEnvironment: (name) => (name === 'client' ? { build: { modulePreload: false } } : undefined),
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    generateBundle: {
      // After Vite's import analysis has written each call's dependency list.
      order: 'post',
      handler(_options, bundle) {
        const helper = Object.keys(bundle).find((file) => HELPER_FILE.test(file));
        if (!helper) return;
        let stillUsed = false;
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.imports.includes(helper)) continue;
          const match = helperImport(helper).exec(chunk.code);
          if (!match || chunk.code.includes('__vite__mapDeps')) {
            stillUsed = true;
            continue;
          }
          const local = match[2] ?? match[1]!;
          chunk.code = chunk.code.replace(match[0], `const ${local}=f=>f();`);
          chunk.imports = chunk.imports.filter((file) => file !== helper);
        }
        if (!stillUsed) delete bundle[helper];
      },
    },
  };
}
