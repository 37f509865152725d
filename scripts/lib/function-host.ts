/**
 * Runs the function bundles that @netlify/zip-it-and-ship-it builds (the ones Netlify deploys), the way
 * Netlify's runtime calls them: each bundle's module is imported once and stays warm, and every request
 * calls its default export with a `Request` and a context (client IP, path parameters, `waitUntil`, …).
 * Routes come from the bundles' manifest (`config.path` and `config.method`); every function also answers
 * at `/.netlify/functions/<name>`, which is how dev and preview run the scheduled mail worker.
 *
 * Node built-ins only, and only erasable TypeScript, so the bundle test can copy this file into a temporary
 * directory far from the repository's node_modules and run it there as a plain Node 24 program:
 *   node function-host.mts <bundles directory> [port]   → prints {"url": …} once it listens.
 * `npm run preview` imports {@link loadFunctions} instead and serves the same bundles in its own process.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The part of Netlify's `Context` the host fills in (the functions use `ip`, `params` and `waitUntil`). */
export interface HostContext {
  account: { id: string };
  deploy: { context: string; id: string; published: boolean };
  geo: Record<string, never>;
  ip: string;
  params: Record<string, string>;
  requestId: string;
  server: { region: string };
  site: { id: string; name: string; url: string };
  url: URL;
  waitUntil: (promise: Promise<unknown>) => void;
}

export type Handler = (req: Request, context: HostContext) => Promise<Response> | Response;

interface ManifestFunction {
  name: string;
  schedule?: string;
  routes?: { pattern: string; methods?: string[] }[];
}

interface Route {
  name: string;
  pattern: URLPattern;
  methods: string[];
  handler: () => Promise<Handler>;
}

export interface FunctionHost {
  /** The function names, in manifest order. */
  names: string[];
  /** Whether a function answers this request (a GET of /admin/login, for one, falls through to the page). */
  matches(request: Request): boolean;
  /** Calls the function a request is routed to; `undefined` when none is. */
  handle(request: Request, clientIp: string): Promise<Response | undefined>;
  /** Waits for what functions handed to `waitUntil`. */
  settle(): Promise<void>;
}

/**
 * The module a bundle's entry point wraps: `___netlify-entry-point.mjs` hands the path of the user's function
 * to Netlify's bootstrap, which only loads inside AWS Lambda's runtime (it needs the `awslambda` global), so
 * the host calls the function module itself, as the bootstrap does.
 */
async function loadBundle(bundleDir: string): Promise<Handler> {
  const entry = join(bundleDir, '___netlify-entry-point.mjs');
  const source = await readFile(entry, 'utf8');
  const wrapped = /getLambdaHandler\(['"](.+?)['"]\)/.exec(source)?.[1];
  if (!wrapped) throw new Error(`${entry} does not name the function it wraps`);
  const module = (await import(pathToFileURL(join(bundleDir, wrapped)).href)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new Error(`${bundleDir}: ${wrapped} has no default export`);
  return module.default as Handler;
}

/** A function the host serves: its routes, and its default export (loaded when a call first needs it). */
export interface HostedFunction {
  name: string;
  routes: { pattern: string; methods?: string[] }[];
  handler: () => Promise<Handler>;
}

/**
 * Serves `functions` as Netlify routes them: a request goes to the first route whose path pattern and method
 * match, and every function also answers at `/.netlify/functions/<name>`.
 * @param oneAtATime one call at a time, including what it hands to `waitUntil`: the embedded database's
 *   socket server interleaves the protocol messages of concurrent connections, so two overlapping queries
 *   can fail ("bind message supplies 2 parameters, but prepared statement "" requires 1") or hang
 *   (@electric-sql/pglite-socket 0.2.17; reproduction in docs/decisions.md). Against a server, no queue.
 */
export function createFunctionHost(
  functions: HostedFunction[],
  siteUrl: string,
  { oneAtATime = false } = {},
): FunctionHost {
  const routes: Route[] = [];
  for (const fn of functions) {
    for (const route of fn.routes)
      routes.push({
        name: fn.name,
        pattern: new URLPattern({ pathname: route.pattern }),
        methods: route.methods ?? [],
        handler: fn.handler,
      });
    routes.push({
      name: fn.name,
      pattern: new URLPattern({ pathname: `/.netlify/functions/${fn.name}` }),
      methods: [],
      handler: fn.handler,
    });
  }

  const pending = new Set<Promise<unknown>>();
  const settle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  const find = (request: Request) => {
    const { pathname } = new URL(request.url);
    for (const route of routes) {
      if (route.methods.length > 0 && !route.methods.includes(request.method)) continue;
      const match = route.pattern.exec({ pathname });
      if (match) return { route, match };
    }
    return undefined;
  };

  const call = async (request: Request, clientIp: string) => {
    const found = find(request);
    if (!found) return undefined;
    const params = Object.fromEntries(
      Object.entries(found.match.pathname.groups).map(([key, value]) => [key, value ?? '']),
    );
    const context: HostContext = {
      account: { id: '' },
      deploy: { context: 'dev', id: '', published: false },
      geo: {},
      ip: clientIp,
      params,
      requestId: randomUUID(),
      server: { region: 'local' },
      site: { id: '', name: 'korvel', url: siteUrl },
      url: new URL(request.url),
      waitUntil: (promise) => {
        const tracked: Promise<unknown> = promise
          .catch((error: unknown) => console.error(`[${found.route.name}] waitUntil failed`, error))
          .finally(() => pending.delete(tracked));
        pending.add(tracked);
      },
    };
    try {
      const handler = await found.route.handler();
      return await handler(request, context);
    } catch (error) {
      // Netlify answers an uncaught error with a 500 and logs it.
      console.error(`[${found.route.name}] uncaught error`, error);
      return new Response('Internal Error', { status: 500, headers: { 'content-type': 'text/plain' } });
    }
  };

  let tail: Promise<unknown> = Promise.resolve();
  return {
    names: functions.map((fn) => fn.name),
    matches: (request) => find(request) !== undefined,
    handle: (request, clientIp) => {
      if (!oneAtATime) return call(request, clientIp);
      // Neither `call` nor `settle` rejects, so the queue never stalls on a failed call.
      const current = tail.then(() => call(request, clientIp));
      tail = current.then(settle);
      return current;
    },
    settle,
  };
}

/**
 * Imports every bundle in `dir`: `manifest.json` as zip-it-and-ship-it writes it, and each function's files
 * in `<dir>/<name>/` (the archive unzipped, or built with `archiveFormat: 'none'`). Each stays warm.
 */
export async function loadFunctions(
  dir: string,
  siteUrl = 'http://127.0.0.1',
  options: { oneAtATime?: boolean } = {},
): Promise<FunctionHost> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
    functions: ManifestFunction[];
  };
  const functions: HostedFunction[] = [];
  for (const fn of manifest.functions) {
    const handler = await loadBundle(join(dir, fn.name));
    functions.push({ name: fn.name, routes: fn.routes ?? [], handler: async () => handler });
  }
  return createFunctionHost(functions, siteUrl, options);
}

/**
 * How much of a body the function left unread (one over its limit, answered 413) the server reads and throws
 * away after answering, so the client's upload ends normally and the keep-alive connection serves the next
 * request. A larger rest is not read: the answer says `Connection: close`, or the socket is dropped.
 */
export const DISCARD_LIMIT = 1024 * 1024;

/**
 * A request's body as a web stream for a `Request`. Unlike `Readable.toWeb(req)`, cancelling it (what a
 * function does with a body over its limit) leaves the socket alone: toWeb destroyed it, and the kernel
 * answered the client's still-arriving bytes with a reset that often beat the 413 to the client. Call
 * {@link discardUnreadBody} before answering.
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => cancelled || controller.close());
        req.once('error', (error) => cancelled || controller.error(error));
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Before the answer to a request whose body the function did not read to the end: the rest is read and
 * discarded up to {@link DISCARD_LIMIT}, so the client sees the answer, its upload completes and the next
 * request on the connection works. A declared rest over the limit gets `Connection: close` instead; an
 * undeclared (chunked) one that passes it loses its socket.
 */
export function discardUnreadBody(req: IncomingMessage, res: ServerResponse) {
  if (req.complete || req.method === 'GET' || req.method === 'HEAD') return;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DISCARD_LIMIT) res.shouldKeepAlive = false;
  // The body stream's own listener goes: nobody reads that stream any more.
  req.removeAllListeners('data');
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > DISCARD_LIMIT && res.shouldKeepAlive) req.socket.destroy();
  });
  req.resume();
}

/**
 * A Node request as the `Request` a function receives. The URL keeps the host the client asked for when it is
 * one of `ownHosts` (passkeys need `localhost`: WebAuthn refuses an IP address as the relying party, and the
 * Origin check compares the host), `origin`'s otherwise. Like the CDN, the server sets the client address
 * itself: a client's own X-Forwarded-For is dropped.
 */
export function requestFrom(req: IncomingMessage, origin: string, ownHosts: Set<string>): Request {
  const host = req.headers.host ?? '';
  const url = new URL(req.url ?? '/', ownHosts.has(host) ? `http://${host}` : origin);
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

/** `node function-host.mts <dir> [port]`: the bundles over HTTP on 127.0.0.1; the client IP is the socket's. */
async function main(dir: string, port: number) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const host = await loadFunctions(dir, url);
  server.on('request', async (req, res) => {
    const request = requestFrom(req, url, new Set());
    const response =
      (await host.handle(request, req.socket.remoteAddress ?? '')) ??
      new Response('No function here.', { status: 404 });
    discardUnreadBody(req, res);
    res.writeHead(response.status, [...response.headers].flat());
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  console.log(JSON.stringify({ url, functions: host.names }));
  const stop = async () => {
    await host.settle();
    server.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.main) await main(process.argv[2] ?? '.', Number(process.argv[3] ?? 0));
