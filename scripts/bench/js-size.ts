/**
 * `npm run bench:js`: for every built page, the JavaScript it ships in gzip bytes.
 *   eager  — module scripts in the page and everything they import statically, plus islands that hydrate
 *            on load; what every visitor downloads before the page is interactive.
 *   total  — eager plus every island (whatever its directive) and dynamic imports.
 *   react  — the part of total that is React (react, react-dom, scheduler, the Astro React renderer).
 *   returning — what a visitor with stored cookie consent downloads (client:consent islands excluded).
 * Reads dist/; run `npm run build` first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve('dist');

function* htmlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* htmlFiles(path);
    else if (name.endsWith('.html')) yield path;
  }
}

const sizes = new Map<string, number>();
const gz = (file: string) => {
  let size = sizes.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(file)).length;
    sizes.set(file, size);
  }
  return size;
};

const fileFor = (url: string, from = dist) =>
  url.startsWith('/') ? join(dist, decodeURI(url)) : resolve(from, decodeURI(url));

/** Files reachable from a module: static imports always, dynamic imports when asked. */
function closure(entry: string, withDynamic: boolean, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  const dir = resolve(entry, '..');
  const staticImports = [
    ...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g),
  ];
  const dynamicImports = withDynamic ? [...code.matchAll(/import\(\s*["']([^"']+\.js)["']\s*\)/g)] : [];
  for (const match of [...staticImports, ...dynamicImports])
    closure(fileFor(match[1]!, dir), withDynamic, seen);
  return seen;
}

const isReact = (file: string) => {
  const code = readFileSync(file, 'utf8');
  return /react\.transitional\.element|__reactContainer|scheduler\.production|react-dom/.test(code);
};

interface Row {
  page: string;
  eager: number;
  total: number;
  react: number;
  returning: number;
}

const rows: Row[] = [];
for (const html of htmlFiles(dist)) {
  const source = readFileSync(html, 'utf8');
  const page =
    '/' +
    relative(dist, html)
      .replace(/(^|\/)index\.html$/, '')
      .replace(/\.html$/, '');
  const eager = new Set<string>();
  const all = new Set<string>();
  const returning = new Set<string>();
  const inline: string[] = [];

  for (const match of source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = match[1]!;
    const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1];
    if (src) {
      for (const f of closure(fileFor(src), false)) [eager, returning].forEach((s) => s.add(f));
      for (const f of closure(fileFor(src), true)) all.add(f);
    } else if (!/type="application\/(ld\+)?json"/.test(attrs)) {
      inline.push(match[2]!);
      for (const m of match[2]!.matchAll(/import\(["']([^"']+\.js)["']\)|from\s*["']([^"']+\.js)["']/g)) {
        const file = fileFor((m[1] ?? m[2])!);
        for (const f of closure(file, false)) [eager, returning].forEach((s) => s.add(f));
        for (const f of closure(file, true)) all.add(f);
      }
    }
  }

  for (const match of source.matchAll(/<astro-island\b([^>]*)>/g)) {
    const attrs = match[1]!;
    const directive = /\bclient="([^"]+)"/.exec(attrs)?.[1] ?? 'load';
    const urls = ['component-url', 'renderer-url']
      .map((name) => new RegExp(`\\b${name}="([^"]+)"`).exec(attrs)?.[1])
      .filter((u): u is string => Boolean(u));
    for (const url of urls) {
      const files = closure(fileFor(url), directive !== 'load');
      files.forEach((f) => all.add(f));
      if (directive === 'load') files.forEach((f) => eager.add(f));
      if (directive !== 'consent') files.forEach((f) => returning.add(f));
    }
  }

  const inlineBytes = inline.reduce((sum, code) => sum + gzipSync(code).length, 0);
  const sum = (set: Set<string>) => [...set].reduce((total, f) => total + gz(f), 0);
  rows.push({
    page,
    eager: sum(eager) + inlineBytes,
    total: sum(all) + inlineBytes,
    react: sum(new Set([...all].filter(isReact))),
    returning: sum(returning) + inlineBytes,
  });
}

rows.sort((a, b) => a.page.localeCompare(b.page));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
console.log(
  `${'page'.padEnd(72)}${'eager'.padStart(9)}${'total'.padStart(9)}${'react'.padStart(9)}${'returning'.padStart(11)}`,
);
for (const row of rows) {
  console.log(`${row.page.padEnd(72)}${kb(row.eager)}${kb(row.total)}${kb(row.react)}  ${kb(row.returning)}`);
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
console.log(
  `\n${rows.length} pages · median eager ${kb(median(rows.map((r) => r.eager))).trim()} · median total ${kb(
    median(rows.map((r) => r.total)),
  ).trim()} · baseline (the replaced SPA) ~300–400 KB gz eager on every route`,
);
