/**
 * The one place that shapes function replies: JSON bodies, `{error:{code,message}}` problems, the headers
 * every reply carries, body reading with a size cap, and the method table that answers 405 with `Allow`.
 */
import type { Context } from '@netlify/functions';
import { DbUnavailableError } from './db/index.ts';
import { ConfigError } from './config.ts';
import { loggable } from './redact.ts';

/**
 * What a handler needs from Netlify's context; tests build the same shape. `waitUntil` keeps the function
 * alive for work after the reply (the first attempt at sending a request's mail).
 */
export type RequestContext = Pick<Context, 'ip' | 'params'> & Partial<Pick<Context, 'waitUntil'>>;
export type Handler = (req: Request, context: RequestContext) => Promise<Response>;
type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** A reply that ends the request early: thrown by guards and parsers, turned into a problem by {@link route}. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly code: string;
  readonly extra: { headers?: Record<string, string>; fields?: Record<string, string> };

  constructor(status: number, code: string, message: string, extra: HttpError['extra'] = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...BASE_HEADERS, ...headers },
  });
}

export function noContent(headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 204, headers: { ...BASE_HEADERS, ...headers } });
}

/** `{ error: { code, message, fields? } }` — never a stack trace or SQL text. */
export function problem(error: HttpError): Response {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.extra.fields && { fields: error.extra.fields }),
    },
  };
  return json(error.status, body, error.extra.headers);
}

/**
 * Reads a JSON body of at most `maxBytes`, counting while it streams so an oversized body is never buffered.
 * Accepts `application/json` with an optional `charset=utf-8`.
 */
export async function readJson(req: Request, maxBytes: number): Promise<unknown> {
  if (mediaType(req) !== 'application/json') {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json (UTF-8).');
  }
  const text = await readText(req, maxBytes);
  if (text.trim() === '')
    throw new HttpError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** The request's media type, lower-cased; `undefined` when a charset other than UTF-8 is declared. */
export function mediaType(req: Request): string | undefined {
  const type = req.headers.get('content-type') ?? '';
  const [media, ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  const charsetOk = parameters.every((p) => !p.startsWith('charset=') || /^charset="?utf-8"?$/.test(p));
  return charsetOk ? media : undefined;
}

/** Whether the body is a plain HTML form post (a browser without JavaScript). */
export const isFormPost = (req: Request) => mediaType(req) === 'application/x-www-form-urlencoded';

/**
 * Reads a plain HTML form post of at most `maxBytes` into an object of strings. A field sent twice is
 * refused: no form of ours repeats a name.
 */
export async function readForm(req: Request, maxBytes: number): Promise<Record<string, string>> {
  const text = await readText(req, maxBytes);
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (fields.has(name))
      throw new HttpError(400, 'invalid_form', `The field "${name.slice(0, 40)}" came twice.`);
    fields.set(name, value);
  }
  return Object.fromEntries(fields);
}

/** Methods that change nothing; every other one is a state change. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `https://www.korvel.example/` → `https://www.korvel.example`; undefined for anything that is not a URL. */
function originOf(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    return new URL(value.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses (403 `foreign_origin`) a state change whose `Origin` is not the site's own: the request's own origin,
 * `SITE_URL` or Netlify's `URL`. A request without `Origin` passes: browsers send it on every non-GET
 * request, so its absence means a script or tool, which must carry a bearer token anyway.
 * @example refuseForeignOrigin(req); // first thing in an admin guard
 */
export function refuseForeignOrigin(req: Request, env: NodeJS.ProcessEnv = process.env): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.get('origin');
  if (origin === null) return;
  const own = [new URL(req.url).origin, originOf(env.SITE_URL), originOf(env.URL)];
  if (!own.includes(origin)) {
    throw new HttpError(403, 'foreign_origin', 'Changes are accepted only from the site itself.');
  }
}

/** A 303 to a page of this site: where a form post without JavaScript lands. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, ...BASE_HEADERS } });
}

/** Reads a body as UTF-8 text, refusing (413) anything over `maxBytes` while it streams. */
export async function readText(req: Request, maxBytes: number): Promise<string> {
  return new TextDecoder('utf-8', { fatal: false }).decode(await readBytes(req, maxBytes));
}

/** Reads a body as bytes (an uploaded picture), refusing (413) anything over `maxBytes` while it streams. */
export async function readBytes(req: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = new HttpError(413, 'payload_too_large', `The body is larger than ${maxBytes} bytes.`);
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge;

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge;
      }
      chunks.push(value);
    }
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Builds a function from a method table. Other methods get 405 with `Allow`; HEAD runs GET without a body.
 * What the handler throws is answered by {@link failure}.
 * @example export default route('newsletter', { GET: listSubscribers, POST: signUp });
 */
export function route(name: string, methods: Partial<Record<Method, Handler>>) {
  const allow = Object.keys(methods)
    .flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))
    .join(', ');
  return async (req: Request, context: RequestContext): Promise<Response> => {
    const method = req.method === 'HEAD' ? 'GET' : (req.method as Method);
    const handler = methods[method];
    try {
      if (!handler) {
        throw new HttpError(405, 'method_not_allowed', `Use ${allow} for this address.`, {
          headers: { allow },
        });
      }
      const response = await handler(req, context);
      return req.method === 'HEAD' ? new Response(null, response) : response;
    } catch (error) {
      return failure(name, error);
    }
  };
}

/**
 * The reply to what a function threw: a known failure becomes its problem, a missing setting 503
 * `server_not_configured`, a database outage 503 with `Retry-After`; anything else is logged (a database error
 * without the values it quotes, src/server/redact.ts) and answered 500 with a generic message. {@link route} uses it; so does the scheduled mail worker, which has no method table.
 */
export function failure(name: string, error: unknown): Response {
  if (error instanceof HttpError) return problem(error);
  if (error instanceof ConfigError) {
    console.error(`[${name}] not configured: ${error.message}`);
    return problem(
      new HttpError(
        503,
        'server_not_configured',
        'The service is not configured yet. Please try again later.',
      ),
    );
  }
  if (error instanceof DbUnavailableError) {
    console.error(`[${name}] database unavailable: ${error.message}`);
    return problem(
      new HttpError(
        503,
        'service_unavailable',
        'The service is temporarily unavailable. Please try again shortly.',
        {
          headers: { 'retry-after': '30' },
        },
      ),
    );
  }
  // A database error's detail can quote a row's values: it is logged without them.
  console.error(`[${name}] unexpected error`, loggable(error));
  return problem(
    new HttpError(500, 'internal_error', 'Something went wrong on our side. Please try again later.'),
  );
}

/**
 * One function for several addresses (a family of small calls, e.g. /api/account/*): each path pattern has its
 * method table, answered as by {@link route}, with the pattern's named groups as `context.params`. An address
 * that matches no pattern answers 404.
 * @example export default routes('team', { '/api/team': { GET: list }, '/api/team/:id': { PATCH: update } });
 */
export function routes(name: string, table: Record<string, Partial<Record<Method, Handler>>>) {
  const entries = Object.entries(table).map(([pathname, methods]) => ({
    pattern: new URLPattern({ pathname }),
    handle: route(name, methods),
  }));
  return async (req: Request, context: RequestContext): Promise<Response> => {
    const pathname = new URL(req.url).pathname;
    for (const { pattern, handle } of entries) {
      const match = pattern.exec({ pathname });
      if (!match) continue;
      const params = Object.fromEntries(
        Object.entries(match.pathname.groups).map(([key, value]) => [key, value ?? '']),
      );
      return handle(req, { ...context, params: { ...context.params, ...params } });
    }
    return problem(new HttpError(404, 'not_found', 'There is nothing at this address.'));
  };
}
