/**
 * A production-like local server: dist/ with netlify.toml's headers and redirects, 404.html with status
 * 404, and netlify/functions against the embedded database (or DATABASE_URL), all on one loopback port
 * (PORT, default 8888).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { NetlifyDev } from '@netlify/dev';
import { freshFunctionBundles } from './lib/function-bundles.ts';
import { bodyStream, discardUnreadBody, loadFunctions } from './lib/function-host.ts';
import { startLocalServices } from './lib/local-services.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 8888);
const host = '127.0.0.1';

const services = await startLocalServices('preview', `http://${host}:${port}`);
const netlify = new NetlifyDev({
  projectRoot: root,
  aiGateway: { enabled: false },
  blobs: { enabled: false },
  database: { enabled: false },
  edgeFunctions: { enabled: false },
  geolocation: { enabled: false },
  images: { enabled: false },
  environmentVariables: { enabled: true },
  functions: { enabled: false },
  headers: { enabled: true },
  redirects: { enabled: true },
  staticFiles: { enabled: true },
});
await netlify.start();

/**
 * The functions are the bundles a deploy ships (scripts/lib/function-bundles.ts), built once before the URL is
 * printed and kept warm in this process (scripts/lib/function-host.ts), like a warm Netlify function instance.
 * @netlify/dev's own function runtime rebuilt a function into a fresh directory on every request (0.4–4 s a
 * call) and let overlapping calls run a bundle whose directory the other had just removed; see
 * docs/decisions.md, "Preview functions".
 */
const bundleDir = join(root, '.netlify', 'preview-functions');
const buildStarted = performance.now();
if (await freshFunctionBundles(bundleDir))
  console.log(`Functions: bundled in ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);
const functions = await loadFunctions(bundleDir, `http://${host}:${port}`);

/**
 * The embedded database serves every connection from one PGlite session, and its socket server interleaves
 * the extended-protocol messages (Parse, Bind, Execute) of concurrent connections, so two overlapping queries
 * can fail ("bind message supplies 2 parameters, but prepared statement "" requires 1") or hang
 * (@electric-sql/pglite-socket 0.2.17; reproduction in docs/decisions.md). Against it, one function call at a
 * time, including what the call hands to `waitUntil`; against DATABASE_URL, no queue.
 */
const oneAtATime = services.embedded ? queue() : <T>(run: () => Promise<T>) => run();

function queue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>): Promise<T> => {
    const current = tail.then(run, run);
    tail = current.then(
      () => functions.settle(),
      () => functions.settle(),
    );
    return current;
  };
}

/** Netlify answers unknown paths with 404.html and status 404, under the same header rules as any page. */
async function notFound(collect: (name: string, value: string) => void): Promise<Response> {
  const page = await netlify.handle(new Request(`http://${host}:${port}/404.html`), {
    headersCollector: collect,
  });
  const body = page ? await page.arrayBuffer() : await readFile(new URL('../dist/404.html', import.meta.url));
  return new Response(body, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/**
 * The names the preview answers to, as Netlify hands a function the host the browser asked for. Passkeys need
 * `localhost`: WebAuthn refuses an IP address as the relying party, and the Origin check compares the host.
 */
const ownHosts = new Set([`${host}:${port}`, `localhost:${port}`]);

/** Like the CDN, the preview sets the client address itself; a client's own X-Forwarded-For is dropped. */
function toRequest(req: IncomingMessage): Request {
  const authority = ownHosts.has(req.headers.host ?? '') ? req.headers.host : `${host}:${port}`;
  const url = new URL(req.url ?? '/', `http://${authority}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  headers.set('x-forwarded-for', req.socket.remoteAddress ?? '');
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: 'half',
  } as RequestInit);
}

const compressible = /^(text\/(?!event-stream)|application\/(javascript|json|xml|rss\+xml)|image\/svg\+xml)/;

/** Like Netlify's CDN, text answers go out compressed (Brotli, else gzip) to a client that accepts it. */
function encoderFor(req: IncomingMessage, headers: Headers) {
  if (headers.has('content-encoding') || !compressible.test(headers.get('content-type') ?? ''))
    return undefined;
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    return { name: 'br', stream: createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) };
  }
  if (/\bgzip\b/.test(accepted)) return { name: 'gzip', stream: createGzip() };
  return undefined;
}

const server = createServer(async (req, res) => {
  try {
    const ruleHeaders = new Headers();
    const request = toRequest(req);
    const collect = (name: string, value: string) => ruleHeaders.set(name, value);
    const response =
      (functions.matches(request)
        ? await oneAtATime(async () => (await functions.handle(request, req.socket.remoteAddress ?? ''))!)
        : await netlify.handle(request, { headersCollector: collect })) ?? (await notFound(collect));
    const headers = new Headers(response.headers);
    ruleHeaders.forEach((value, name) => {
      if (!headers.has(name)) headers.set(name, value);
    });
    const encoder = response.body && req.method !== 'HEAD' ? encoderFor(req, headers) : undefined;
    if (encoder) {
      headers.set('content-encoding', encoder.name);
      headers.delete('content-length');
      headers.append('vary', 'Accept-Encoding');
    }
    // A body the function refused (413) is read to its end and dropped, so the keep-alive connection lives on.
    discardUnreadBody(req, res);
    res.writeHead(response.status, Object.fromEntries(headers));
    if (!response.body || req.method === 'HEAD') res.end();
    else if (encoder)
      Readable.fromWeb(response.body as never)
        .pipe(encoder.stream)
        .pipe(res);
    else Readable.fromWeb(response.body as never).pipe(res);
  } catch (error) {
    console.error('preview: request failed', req.method, req.url, error);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The preview server could not handle this request.');
  }
});

server.listen(port, host, () => {
  console.log([`Preview: http://${host}:${port}`, ...services.banner].join('\n'));
  services.startMailWorker();
});

const stop = async () => {
  server.close();
  await netlify.stop();
  await services.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
