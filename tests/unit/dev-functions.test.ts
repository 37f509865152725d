/**
 * `npm run dev`'s functions (scripts/lib/dev-functions.ts): a Vite dev server over a small project of its own
 * with three functions written as the repository's are (TypeScript, a TSX import, `config.path` with a
 * parameter, a method list), served over HTTP the way the korvel integration serves them. The functions'
 * routes come from their config, a page's request passes through untouched, and an edit to an imported file
 * is what the next call runs.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { devFunctionHost, devFunctionMiddleware } from '../../scripts/lib/dev-functions.ts';

const repositoryModules = fileURLToPath(new URL('../../node_modules', import.meta.url));
// Not under test-results/, which Vite's watcher leaves alone; react resolves through a link to node_modules.
const root = mkdtempSync(join(tmpdir(), 'korvel-dev-functions-'));

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { jsx: 'react-jsx', jsxImportSource: 'react' } }),
  'src/greeting.tsx': `import { renderToStaticMarkup } from 'react-dom/server';
export const greeting = (name: string): string => renderToStaticMarkup(<p>Hello, {name}</p>);
`,
  'netlify/functions/greet.mts': `import { greeting } from '../../src/greeting.tsx';
export default (_req: Request, context: { params: Record<string, string> }) =>
  new Response(greeting(context.params.name ?? ''), { headers: { 'content-type': 'text/html' } });
export const config = { path: '/greet/:name' };
`,
  'netlify/functions/login.mts': `export default async (req: Request, context: { ip: string }) =>
  Response.json({ method: req.method, body: await req.text(), ip: context.ip });
export const config = { path: '/login', method: ['POST'] };
`,
  'netlify/functions/worker.mts': `export default () => new Response('ran');
export const config = { schedule: '* * * * *' };
`,
};

let vite: ViteDevServer;
let server: Server;
let origin: string;

beforeAll(async () => {
  symlinkSync(repositoryModules, join(root, 'node_modules'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  vite = await createViteServer({
    root,
    configFile: false,
    logLevel: 'silent',
    appType: 'custom',
    server: { middlewareMode: true },
    // Its own cache: the default, node_modules/.vite through the link, is the running `npm run dev`'s, whose
    // pages would then ask for dependency bundles by an outdated hash (504) and never hydrate.
    cacheDir: join(root, '.vite'),
  });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  const host = devFunctionHost(vite, root, origin);
  const functions = devFunctionMiddleware(() => host, origin, new Set([`127.0.0.1:${port}`]));
  server.on('request', (req, res) =>
    functions(req, res, (error) => {
      // Stands in for Astro's pages: what no function took, with the body it still has.
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => res.writeHead(error ? 500 : 404).end(`page ${req.method} ${body}`));
    }),
  );
});

afterAll(async () => {
  server?.close();
  await vite?.close();
  rmSync(root, { recursive: true, force: true });
});

test('a function answers at its config path, with its parameter, its TSX rendered', async () => {
  const response = await fetch(`${origin}/greet/Ana`);
  expect(response.status).toBe(200);
  expect(await response.text()).toBe('<p>Hello, Ana</p>');
});

test('a method the config leaves out goes on to the pages, body and all; a listed one reaches the function', async () => {
  const page = await fetch(`${origin}/login`, { method: 'PUT', body: 'kept' });
  expect([page.status, await page.text()]).toEqual([404, 'page PUT kept']);
  const call = await fetch(`${origin}/login`, { method: 'POST', body: 'secret' });
  expect(call.status).toBe(200);
  expect(await call.json()).toEqual({ method: 'POST', body: 'secret', ip: '127.0.0.1' });
});

test('a scheduled function answers at /.netlify/functions/<name>, as dev runs the mail worker', async () => {
  const response = await fetch(`${origin}/.netlify/functions/worker`, { method: 'POST' });
  expect([response.status, await response.text()]).toEqual([200, 'ran']);
  expect((await fetch(`${origin}/.netlify/functions/missing`)).status).toBe(404);
});

test('an edit to a file a function imports is what the next call runs', async () => {
  writeFileSync(
    join(root, 'src/greeting.tsx'),
    files['src/greeting.tsx']!.replace('<p>Hello, {name}</p>', '<p>Good morning, {name}</p>'),
  );
  await expect
    .poll(async () => (await fetch(`${origin}/greet/Ana`)).text(), { timeout: 30_000 })
    .toBe('<p>Good morning, Ana</p>');
});
