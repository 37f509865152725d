// @ts-check
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { bootScriptHash } from './src/scripts/boot-hash.mjs';
import { site } from './src/site.config.ts';
import { isIndexable } from './src/routes.ts';
import { defaultLang, languages } from './src/i18n/lang.ts';
import { satteri } from '@astrojs/markdown-satteri';
import { unbrokenDesignations } from './src/lib/unbroken-plugin.ts';
import { figureCaptions } from './src/lib/figure-plugin.ts';
import { plainDynamicImports } from './scripts/lib/plain-dynamic-imports.ts';

/**
 * Registers `client:interaction` (hydrate when a visitor first reaches for an island) and the admin pages' `client:signin` and `client:session` (src/directives), regenerates the brochure PDFs (English and German) in public/, the newsletter's article index and the web fonts (src/generated) before every build and dev start, copies the social cards from their cache into dist/og after a build and
 * reports how many it drew or found there (src/server/og), minifies the emitted drawings with SVGO
 * (scripts/lib/minify-drawings.ts), and, in dev only, Netlify's emulation of headers,
 * redirects and environment variables, and `netlify/functions` on the same port as the pages
 * (scripts/lib/dev-functions.ts).
 * @returns {import('astro').AstroIntegration}
 */
function korvel() {
  return {
    name: 'korvel',
    hooks: {
      'astro:config:setup': async ({ command, config, addClientDirective, updateConfig, logger }) => {
        addClientDirective({ name: 'interaction', entrypoint: './src/directives/interaction.ts' });
        addClientDirective({ name: 'signin', entrypoint: './src/directives/signin.ts' });
        addClientDirective({ name: 'session', entrypoint: './src/directives/session.ts' });
        if (command === 'build' || command === 'dev') {
          const { writeBrochures } = await import('./scripts/lib/brochure/index.ts');
          const root = fileURLToPath(config.root);
          const cacheDir = join(root, 'node_modules', '.cache', 'brochure');
          for (const brochure of await writeBrochures(root, { cacheDir }))
            logger.info(
              `brochure (${brochure.lang}): ${brochure.pages} pages, ${Math.round(brochure.bytes / 1024)} KB${brochure.cached ? ' (cached)' : ''}`,
            );
          const { writeArticleIndex } = await import('./scripts/lib/article-index.ts');
          logger.info(
            `article index: ${writeArticleIndex(fileURLToPath(config.root))} articles for newsletter cards`,
          );
          const { writeWebFonts } = await import('./scripts/lib/web-fonts.ts');
          const cut = await writeWebFonts(fileURLToPath(config.root));
          logger.info(`web fonts: ${cut ? `${cut} cut` : 'current'}`);
        }
        if (command === 'dev') {
          // Imported here: loading Netlify's emulation took 2 s of every build that never used it. Its
          // functions are ours (astro:server:setup below); the database is PGlite or DATABASE_URL.
          const { default: netlify } = await import('@netlify/vite-plugin');
          updateConfig({
            vite: {
              plugins: [
                netlify({
                  edgeFunctions: { enabled: false },
                  images: { enabled: false },
                  blobs: { enabled: false },
                  functions: { enabled: false },
                  database: { enabled: false },
                }),
              ],
            },
          });
        }
      },
      'astro:server:setup': async ({ server }) => {
        const { devFunctionHost, devFunctionMiddleware } = await import('./scripts/lib/dev-functions.ts');
        const { port } = server.config.server;
        const origin = `http://127.0.0.1:${port}`;
        /** @type {Promise<import('./scripts/lib/function-host.ts').FunctionHost> | undefined} */
        let host;
        const functions = () =>
          (host ??= devFunctionHost(server, fileURLToPath(new URL('.', import.meta.url)), origin, {
            // Set by scripts/dev.ts when the database is the embedded PGlite.
            oneAtATime: process.env.KORVEL_ONE_CALL_AT_A_TIME === '1',
          }));
        server.middlewares.use(
          devFunctionMiddleware(functions, origin, new Set([`127.0.0.1:${port}`, `localhost:${port}`])),
        );
      },
      'astro:build:done': async ({ dir, logger }) => {
        // netlify.toml answers a missing page under /de with /de/404.html; build.format 'directory' wrote the
        // page as de/404/index.html (only the root 404 gets a .html name), so it moves to the name the rule says.
        const { rename, rmdir } = await import('node:fs/promises');
        for (const lang of languages.filter((l) => l !== defaultLang)) {
          await rename(new URL(`${lang}/404/index.html`, dir), new URL(`${lang}/404.html`, dir));
          await rmdir(new URL(`${lang}/404/`, dir));
        }
        const { copyCards } = await import('./scripts/lib/copy-cards.ts');
        const cards = await copyCards(fileURLToPath(dir));
        logger.info(`social cards: ${cards.drawn} drawn, ${cards.cached} from the cache`);
        const { minifyDrawings } = await import('./scripts/lib/minify-drawings.ts');
        const root = fileURLToPath(new URL('.', import.meta.url));
        const svg = await minifyDrawings(fileURLToPath(dir), join(root, 'node_modules', '.cache', 'svgo'));
        const kb = (/** @type {number} */ bytes) => Math.round(bytes / 1024);
        logger.info(
          `drawings: ${svg.files} through SVGO (${svg.cached} from the cache), ${kb(svg.before)} → ${kb(svg.after)} KB`,
        );
      },
    },
  };
}

/**
 * Drops Rolldown's MODULE_LEVEL_DIRECTIVE warning for the `"use astro:head-inject"` marker Astro's MDX
 * integration puts in every MDX module: Astro reads the marker itself, so the warning says nothing, and at
 * 1,000 articles it was 1,000 code frames (10,000 lines) in every build's log. Other warnings pass.
 * @returns {import('vite').Plugin}
 */
function quietHeadInject() {
  return {
    name: 'korvel:quiet-head-inject',
    onLog: (_level, log) =>
      !(log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('astro:head-inject')),
  };
}

export default defineConfig({
  site: site.url,
  output: 'static',
  server: { host: '127.0.0.1', port: 4321 },
  trailingSlash: 'never',
  // Every page's CSS (about 8 KB compressed) travels inside its HTML: no render-blocking request before the
  // first paint. Astro hashes each inlined <style> into the page's CSP.
  // Two pages render at a time: while one waits for its file to be written or its card read, the other runs
  // (at 1,000 extra articles `astro build` took 43–44 s instead of 48; 3 or 6 at a time were no faster, and
  // the pages came out byte for byte the same).
  build: { format: 'directory', inlineStylesheets: 'always', concurrency: 2 },
  integrations: [
    korvel(),
    react(),
    mdx(),
    // Each page lists its twins in the other languages as xhtml:link alternates (only where one exists).
    sitemap({
      filter: (page) => isIndexable(new URL(page).pathname),
      i18n: {
        defaultLocale: defaultLang,
        locales: Object.fromEntries(languages.map((lang) => [lang, lang])),
      },
    }),
  ],
  // Lazily loaded code fetches its own imports instead of Vite preloading them, and no page carries Vite's
  // preload helper (scripts/lib/plain-dynamic-imports.ts): the eager JavaScript budget (README).
  vite: { plugins: [plainDynamicImports(), quietHeadInject()] },
  // Every SVG comes from this repository (reviewed like code), so sharp may rasterise the drawings to AVIF/WebP;
  // the service keeps an image's own format wherever the derived one would be larger (src/lib/image-service.ts).
  image: { dangerouslyProcessSVG: true, service: { entrypoint: './src/lib/image-service.ts' } },
  // Shiki writes inline styles that a hash-based CSP would block; Prism styles come from a stylesheet.
  // Sätteri (Astro's Markdown processor) with two plugins: standard numbers such as "14644-1" never break
  // after their hyphen (src/lib/unbroken-plugin.ts), and a picture with a title, `![alt](src "caption")`, alone
  // in its paragraph is a figure with its caption (src/lib/figure-plugin.ts).
  markdown: {
    syntaxHighlight: 'prism',
    processor: satteri({ hastPlugins: [unbrokenDesignations, figureCaptions] }),
  },
  // English keeps SPEC's paths; German is /de + the same path. Public route files live under
  // src/pages/[...lang] and build once per language (src/pages/_lang.ts); the admin stays English only.
  i18n: {
    locales: [...languages],
    defaultLocale: defaultLang,
    routing: { prefixDefaultLocale: false },
  },
  security: {
    csp: {
      algorithm: 'SHA-256',
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "media-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "frame-src 'none'",
      ],
      // 'wasm-unsafe-eval' lets Pagefind compile its WebAssembly search core (docs/decisions.md, site search);
      // it allows no eval() of strings, and scripts still come only from this origin or a listed hash.
      scriptDirective: { resources: ["'self'", "'wasm-unsafe-eval'"], hashes: [bootScriptHash] },
    },
  },
});
