import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

/** Most lines a route file may have: a route reads as the page's outline, its sections live in src/components. */
const MAX_ROUTE_LINES = 150;

// Route files are every file under src/pages except helpers, whose names start with `_` (Astro ignores them).
const routeFiles = readdirSync('src/pages', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(astro|ts|mdx?)$/.test(file))
  .filter((file) => !file.split('/').some((part) => part.startsWith('_')))
  .sort();

const lineCount = (file: string) => readFileSync(`src/pages/${file}`, 'utf8').trimEnd().split('\n').length;

describe('route files', () => {
  test('are found', () => {
    // Public pages build once per language from src/pages/[...lang] (src/pages/_lang.ts).
    expect(routeFiles).toContain('[...lang]/index.astro');
    expect(routeFiles).toContain('[...lang]/[sector].astro');
  });

  test.each(routeFiles)(`src/pages/%s has at most ${MAX_ROUTE_LINES} lines`, (file) => {
    expect(lineCount(file)).toBeLessThanOrEqual(MAX_ROUTE_LINES);
  });
});
