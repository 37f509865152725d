/**
 * A production-like local server: dist/ with netlify.toml's headers and redirects, 404.html with status
 * 404 (and netlify.toml's per-language not-found pages: /de/404.html for a missing page under /de), and
 * netlify/functions against the embedded database (or DATABASE_URL), all on one loopback port (PORT, default
 * 8888).
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import { NetlifyDev } from '@netlify/dev';
import { parseAllRedirects } from '@netlify/redirect-parser';
import { freshFunctionBundles } from './lib/function-bundles.ts';
import { discardUnreadBody, loadFunctions, requestFrom } from './lib/function-host.ts';
import { startLocalServices } from './lib/local-services.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 8888);
const host = '127.0.0.1';

/**
 * What the start-up is doing, named on stderr every 30 s until the URL is printed: a start that hangs (the
 * end-to-end suite waits up to ten minutes and then shows the preview's stderr) says where it stopped.
 */
let starting = 'the embedded database and the mail catcher';
const startedAt = performance.now();
const slowStart = setInterval(() => {
  const seconds = Math.round((performance.now() - startedAt) / 1000);
  console.error(`Preview: still starting ${starting} after ${seconds} s`);
}, 30_000);

const services = await startLocalServices('preview', `http://${host}:${port}`);
starting = "Netlify's static files, headers and redirects";
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
starting = 'the function bundles';
const buildStarted = performance.now();
if (await freshFunctionBundles(bundleDir))
  console.log(`Functions: bundled in ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);
// Against the embedded database, one call at a time (scripts/lib/function-host.ts says why).
const functions = await loadFunctions(bundleDir, `http://${host}:${port}`, { oneAtATime: services.embedded });

/** Netlify answers unknown paths with 404.html and status 404, under the same header rules as any page. */
async function notFound(collect: (name: string, value: string) => void): Promise<Response> {
  const page = await netlify.handle(new Request(`http://${host}:${port}/404.html`), {
    headersCollector: collect,
  });
  const body = page ? await page.arrayBuffer() : await readFile(new URL('../dist/404.html', import.meta.url));
  return new Response(body, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/** A rule as @netlify/redirect-parser hands it back (its types leave the rules `unknown`). */
interface RedirectRule {
  from: string;
  status?: number;
  force: boolean;
}
/**
 * netlify.toml's not-found rules (`status = 404`, e.g. `/de/*` → `/de/404.html`). @netlify/dev serves a rule's
 * page but with status 200 (@netlify/redirects 3: a rewrite answers with its target's status), so the preview
 * sets the 404 itself: for a path a rule covers that is no file of dist/ (Netlify applies a rule that is not
 * forced only where no file answers).
 */
const notFoundRules = (
  (
    await parseAllRedirects({
      netlifyConfigPath: join(root, 'netlify.toml'),
      redirectsFiles: [],
      configRedirects: [],
      minimal: true,
    })
  ).redirects as RedirectRule[]
)
  .filter((rule) => rule.status === 404 && !rule.force)
  .map((rule) => new URLPattern({ pathname: rule.from }));

/** Whether dist/ answers `pathname` itself: a file, a directory's index.html, or a page's `.html`. */
function isOwnFile(pathname: string): boolean {
  const path = join(root, 'dist', decodeURIComponent(pathname));
  return (
    statSync(path, { throwIfNoEntry: false })?.isFile() === true ||
    existsSync(join(path, 'index.html')) ||
    existsSync(`${path}.html`)
  );
}

/** A page a not-found rule served: the same answer with Netlify's 404. */
function asNotFound(url: URL, response: Response): Response {
  if (response.status !== 200 || !notFoundRules.some((rule) => rule.test({ pathname: url.pathname })))
    return response;
  if (isOwnFile(url.pathname)) return response;
  return new Response(response.body, { status: 404, headers: response.headers });
}

/**
 * The names the preview answers to, as Netlify hands a function the host the browser asked for. Passkeys need
 * `localhost`: WebAuthn refuses an IP address as the relying party, and the Origin check compares the host.
 */
const ownHosts = new Set([`${host}:${port}`, `localhost:${port}`]);

const compressible = /^(text\/(?!event-stream)|application\/(javascript|json|xml|rss\+xml)|image\/svg\+xml)/;

type Encoding = 'br' | 'gzip';

/** Like Netlify's CDN, text answers go out compressed (Brotli, else gzip) to a client that accepts it. */
function acceptedEncoding(req: IncomingMessage): Encoding | undefined {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return undefined;
}
const compresses = (headers: Headers) =>
  !headers.has('content-encoding') && compressible.test(headers.get('content-type') ?? '');
const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

interface Kept {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Answers from dist/, kept once made (and compressed) for each path and encoding, as the CDN keeps them:
 * @netlify/dev works each request through a temporary directory of its own and reads its header rules again,
 * and with the compression that was a fifth of the preview's CPU in the end-to-end tests (issue 26). A build
 * empties dist/, which changes its modification time, and that empties the store. Each kept answer carries an
 * ETag (a hash of the bytes sent), and a request whose If-None-Match names it gets 304 Not Modified, as from
 * Netlify: a page is `max-age=0, must-revalidate`, so a returning visitor's browser asks again and, the page
 * unchanged, receives only headers (issue 38). Requests for part of a file or with If-Modified-Since go to
 * @netlify/dev every time.
 */
const kept = new Map<string, Kept>();
const distDir = join(root, 'dist');
let distVersion = 0;

/** Where a static answer to `req` is kept, and the answer if it is; undefined if it is not to be kept. */
function keptAnswer(req: IncomingMessage): { key: string; answer?: Kept } | undefined {
  const { range, 'if-modified-since': since } = req.headers;
  if ((req.method !== 'GET' && req.method !== 'HEAD') || range || since) return undefined;
  const version = statSync(distDir, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (version !== distVersion) {
    kept.clear();
    distVersion = version;
  }
  const key = `${acceptedEncoding(req) ?? 'identity'} ${req.url}`;
  return { key, answer: kept.get(key) };
}

/** Whether the request's If-None-Match names the answer's ETag (or is `*`). */
function unchanged(req: IncomingMessage, answer: Kept): boolean {
  const tags = String(req.headers['if-none-match'] ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(answer.headers.etag!);
}

function sendKept(req: IncomingMessage, res: ServerResponse, answer: Kept): void {
  if (unchanged(req, answer)) {
    const headers = { ...answer.headers };
    delete headers['content-length'];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

const server = createServer(async (req, res) => {
  try {
    const request = requestFrom(req, `http://${host}:${port}`, ownHosts);
    const isFunction = functions.matches(request);
    const keep = isFunction ? undefined : keptAnswer(req);
    if (keep?.answer) return sendKept(req, res, keep.answer);

    const ruleHeaders = new Headers();
    const collect = (name: string, value: string) => ruleHeaders.set(name, value);
    const response = isFunction
      ? (await functions.handle(request, req.socket.remoteAddress ?? ''))!
      : asNotFound(
          new URL(request.url),
          (await netlify.handle(request, { headersCollector: collect })) ?? (await notFound(collect)),
        );
    const headers = new Headers(response.headers);
    ruleHeaders.forEach((value, name) => {
      if (!headers.has(name)) headers.set(name, value);
    });
    const encoding =
      response.body && req.method !== 'HEAD' && compresses(headers) ? acceptedEncoding(req) : undefined;
    if (encoding) {
      headers.set('content-encoding', encoding);
      headers.delete('content-length');
      headers.append('vary', 'Accept-Encoding');
    }
    // A body the function refused (413) is read to its end and dropped, so the keep-alive connection lives on.
    discardUnreadBody(req, res);

    if (keep && response.status === 200 && response.body && req.method === 'GET') {
      const plain = Buffer.from(await response.arrayBuffer());
      const body = encoding === 'br' ? brotliCompressSync(plain, brotli) : encoding ? gzipSync(plain) : plain;
      headers.set('content-length', String(body.byteLength));
      headers.set('etag', `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`);
      const answer = { status: 200, headers: Object.fromEntries(headers), body };
      kept.set(keep.key, answer);
      return sendKept(req, res, answer);
    }

    res.writeHead(response.status, Object.fromEntries(headers));
    if (!response.body || req.method === 'HEAD') res.end();
    else if (encoding)
      Readable.fromWeb(response.body as never)
        .pipe(encoding === 'br' ? createBrotliCompress(brotli) : createGzip())
        .pipe(res);
    else Readable.fromWeb(response.body as never).pipe(res);
  } catch (error) {
    console.error('preview: request failed', req.method, req.url, error);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The preview server could not handle this request.');
  }
});

// Idle connections are closed by the client only, as Netlify's edge keeps them far longer than Node's 5 s: a
// test whose request context sat idle that long sent its next call on a socket the server had just closed
// (read ECONNRESET in a CI run; the API harness and the neon proxy do the same).
server.keepAliveTimeout = 0;
starting = `the server on port ${port}`;
server.listen(port, host, () => {
  clearInterval(slowStart);
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
