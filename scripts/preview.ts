/**
 * A production-like local server: dist/ with netlify.toml's headers and redirects, 404.html with status
 * 404, and netlify/functions against the embedded database (or DATABASE_URL), all on one loopback port
 * (PORT, default 8888).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { NetlifyDev } from '@netlify/dev';
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
  functions: { enabled: true },
  headers: { enabled: true },
  redirects: { enabled: true },
  staticFiles: { enabled: true },
});
await netlify.start();

/**
 * Opt-in (the end-to-end server sets SERIAL_FUNCTIONS=1): one invocation at a time per function.
 * @netlify/dev builds a function into a directory of each request and keeps the build on the function object
 * all requests share, so two overlapping calls of one function can run a bundle whose directory the other has
 * just removed ("Cannot find module './connection'", answered 500). Netlify's servers do not have this problem.
 */
const serialFunctions = process.env.SERIAL_FUNCTIONS === '1';
const functionQueues = new Map<string, Promise<unknown>>();

/** The function a request may reach, by the shape of its path (`/api/newsletter`, `/api/newsletter/*`, …). */
function functionKey(method: string, pathname: string): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const isFunction =
    parts[0] === 'api' || (parts[0] === 'admin' && parts.length > 1 && method !== 'GET' && method !== 'HEAD');
  if (!isFunction) return undefined;
  return parts.length > 2 ? `/${parts[0]}/${parts[1]}/*` : `/${parts.join('/')}`;
}

async function oneAtATime<T>(key: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!serialFunctions || !key) return run();
  const current = (functionQueues.get(key) ?? Promise.resolve()).then(run, run);
  const tail = current.catch(() => undefined);
  functionQueues.set(key, tail);
  try {
    return await current;
  } finally {
    if (functionQueues.get(key) === tail) functionQueues.delete(key);
  }
}

/** Netlify answers unknown paths with 404.html and status 404, under the same header rules as any page. */
async function notFound(collect: (name: string, value: string) => void): Promise<Response> {
  const page = await netlify.handle(new Request(`http://${host}:${port}/404.html`), {
    headersCollector: collect,
  });
  const body = page ? await page.arrayBuffer() : await readFile(new URL('../dist/404.html', import.meta.url));
  return new Response(body, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/** Like the CDN, the preview sets the client address itself; a client's own X-Forwarded-For is dropped. */
function toRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? '/', `http://${host}:${port}`);
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
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
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
    const key = functionKey(request.method, new URL(request.url).pathname);
    const response =
      (await oneAtATime(key, () => netlify.handle(request, { headersCollector: collect }))) ??
      (await notFound(collect));
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
