/**
 * The JavaScript each built page ships, in gzip bytes, following island imports and not only
 * `<script src>`. Used by `npm run bench:js` (figures) and the budget test (limits).
 *   eager     — scripts in the page and everything they import statically, plus islands that hydrate on
 *               load: what every visitor downloads before the page is interactive.
 *   hydrated  — eager plus every island's static imports, whatever its directive: what the page has loaded once
 *               its islands have hydrated, before anything they import on demand.
 *   total     — eager plus every island (whatever its directive) and dynamic imports.
 *   react     — the part of total that is React (react, react-dom, scheduler, the Astro React renderer).
 * A dynamic `import()` is never eager, in an inline script or a file: it runs when the page asks for it (on
 * first use, when an element nears the viewport); `total` counts what it loads.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageWeight {
  page: string;
  eager: number;
  hydrated: number;
  total: number;
  react: number;
  /** The hydration directive of each island on the page, e.g. ['visible']. */
  islands: string[];
  /** Where the eager bytes go: each inline script and each file, gzip bytes, in page order. */
  eagerParts: { name: string; bytes: number }[];
}

/** A readable name for an inline script: the boot script, Astro's island runtime, a directive or a module. */
function inlineName(code: string): string {
  if (code.includes("'korvel:loader-shown'")) return 'boot.js (inline)';
  if (code.includes('astro-island')) return 'Astro island runtime (inline)';
  const directive = /\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.(\w+)=/.exec(code)?.[1];
  if (directive) return `client:${directive} directive (inline)`;
  return `inline module: ${code.trim().slice(0, 48)}…`;
}

function* htmlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* htmlFiles(path);
    else if (name.endsWith('.html')) yield path;
  }
}

/** `import x from "./a.js"`, `import "./a.js"`, `export { y } from "./a.js"`. */
const STATIC_IMPORT = /(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g;

// React's own chunks: its element symbol, the root container, the scheduler, and the error-URL helper every
// production build of react and react-dom carries (react-dom's small entry has no other mark when the bundler
// splits it from react-dom/client, as it does once an island imports react-dom itself).
const REACT_MARKERS =
  /react\.transitional\.element|__reactContainer|scheduler\.production|react-dom|https:\/\/react\.dev\/errors\//;

/** Whether a built chunk is part of React. */
export const isReactChunk = (file: string) => REACT_MARKERS.test(readFileSync(file, 'utf8'));

/** Measures every HTML page under `dist`. */
export function measurePages(dist = resolve('dist')): PageWeight[] {
  const gzipped = new Map<string, number>();
  const gz = (file: string) => {
    let size = gzipped.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(file)).length;
      gzipped.set(file, size);
    }
    return size;
  };
  const fileFor = (url: string, from = dist) =>
    url.startsWith('/') ? join(dist, decodeURI(url)) : resolve(from, decodeURI(url));

  /** Files reachable from a module: static imports always, dynamic imports when asked. */
  const closure = (entry: string, withDynamic: boolean, seen = new Set<string>()): Set<string> => {
    if (seen.has(entry)) return seen;
    seen.add(entry);
    const code = readFileSync(entry, 'utf8');
    const dir = resolve(entry, '..');
    const found = [...code.matchAll(STATIC_IMPORT)];
    // Vite writes dynamic imports with quotes or backticks: import(`./chunk.js`).
    if (withDynamic) found.push(...code.matchAll(/import\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g));
    for (const match of found) closure(fileFor(match[1]!, dir), withDynamic, seen);
    return seen;
  };

  const rows: PageWeight[] = [];
  for (const html of htmlFiles(dist)) {
    const source = readFileSync(html, 'utf8');
    const page =
      '/' +
      relative(dist, html)
        .replace(/(^|\/)index\.html$/, '')
        .replace(/\.html$/, '');
    const eager = new Set<string>();
    const hydrated = new Set<string>();
    const all = new Set<string>();
    const islands: string[] = [];
    const eagerParts: PageWeight['eagerParts'] = [];
    let inlineBytes = 0;

    const addEntry = (file: string, hydrates: 'load' | 'later') => {
      for (const f of closure(file, true)) all.add(f);
      const direct = closure(file, false);
      for (const f of direct) hydrated.add(f);
      if (hydrates === 'load')
        for (const f of direct) {
          if (eager.has(f)) continue;
          eager.add(f);
          eagerParts.push({ name: '/' + relative(dist, f), bytes: gz(f) });
        }
    };

    for (const match of source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      const [, attrs = '', code = ''] = match;
      if (/type="application\/(ld\+)?json"/.test(attrs)) continue;
      const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1];
      if (src) {
        addEntry(fileFor(src), 'load');
        continue;
      }
      const bytes = gzipSync(code).length;
      inlineBytes += bytes;
      eagerParts.push({ name: inlineName(code), bytes });
      for (const m of code.matchAll(STATIC_IMPORT)) addEntry(fileFor(m[1]!), 'load');
      // Its dynamic imports load later: counted in `total` only.
      for (const m of code.matchAll(/import\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g))
        for (const f of closure(fileFor(m[1]!), true)) all.add(f);
    }

    for (const match of source.matchAll(/<astro-island\b([^>]*)>/g)) {
      const attrs = match[1]!;
      const directive = /\bclient="([^"]+)"/.exec(attrs)?.[1] ?? 'load';
      islands.push(directive);
      const hydrates = directive === 'load' ? 'load' : 'later';
      for (const name of ['component-url', 'renderer-url']) {
        const url = new RegExp(`\\b${name}="([^"]+)"`).exec(attrs)?.[1];
        if (url) addEntry(fileFor(url), hydrates);
      }
    }

    const sum = (files: Iterable<string>) => [...files].reduce((total, f) => total + gz(f), 0);
    rows.push({
      page,
      eager: sum(eager) + inlineBytes,
      hydrated: sum(hydrated) + inlineBytes,
      total: sum(all) + inlineBytes,
      react: sum([...all].filter(isReactChunk)),
      islands,
      eagerParts,
    });
  }
  return rows.sort((a, b) => a.page.localeCompare(b.page));
}
