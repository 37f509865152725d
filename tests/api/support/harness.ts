/**
 * Real HTTP through the real functions: a loopback server that routes each request to the module in
 * netlify/functions whose `config.path` (and `config.method`) matches, as Netlify does, with a context
 * carrying the client IP and path parameters. The database is the run's target (see global-setup.ts),
 * a fresh one per test file, migrated.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { Config } from '@netlify/functions';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, type Db } from '../../../src/server/db/index.ts';
import { createPgliteDb } from '../../../src/server/db/pglite.ts';
import { useDatabase } from '../../../src/server/config.ts';
import type { RequestContext } from '../../../src/server/http.ts';
import { migrate, type Migration } from '../../../src/server/migrate.ts';
import * as OTPAuth from 'otpauth';
import { encryptSecret, newTotpSecret } from '../../../src/server/factors.ts';
import { upsertAdmin, type Role } from '../../../src/server/repositories/admins.ts';
import { confirmTotp, setPendingTotp } from '../../../src/server/repositories/factors.ts';
import { fixtureHash } from '../../support/fixture-password.ts';
import { bodyStream } from '../../../scripts/lib/function-host.ts';

/** Only this harness reads it: the IP the function should see, standing in for the CDN's client address. */
export const CLIENT_IP_HEADER = 'x-test-client-ip';
export const TEST_JWT_SECRET = 'korvel-api-tests-secret-of-at-least-32-bytes';

type FunctionModule = {
  default: (req: Request, context: RequestContext) => Promise<Response>;
  config: Config;
};
interface RouteEntry {
  pattern: URLPattern;
  methods?: string[];
  handler: FunctionModule['default'];
}

const functionsDir = fileURLToPath(new URL('../../../netlify/functions/', import.meta.url));

async function loadRoutes(): Promise<RouteEntry[]> {
  const routes: RouteEntry[] = [];
  for (const file of readdirSync(functionsDir).filter((f) => f.endsWith('.mts'))) {
    const module = (await import(`${functionsDir}${file}`)) as FunctionModule;
    const paths = [module.config.path ?? []].flat();
    const methods = module.config.method ? [module.config.method].flat() : undefined;
    for (const pathname of paths)
      routes.push({ pattern: new URLPattern({ pathname }), methods, handler: module.default });
  }
  return routes;
}

/**
 * A fresh database of the run's kind (PGlite, PostgreSQL or Neon), migrated — up to `migrations` when given,
 * e.g. to test what a later migration does to the rows of an earlier schema.
 */
export async function openTestDb(migrations?: Migration[]): Promise<Db> {
  const target = inject('apiDb');
  let db: Db;
  if (target.kind === 'pglite') {
    // A copy of the cluster global-setup.ts initialised once: the same empty database initdb would make.
    db = (await createPgliteDb(undefined, new Blob([readFileSync(target.snapshot)]))).db;
  } else {
    const name = `korvel_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: target.serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    if (target.kind === 'neon') {
      process.env.NEON_LOCAL_PROXY = target.proxy;
      db = createDb(`postgres://korvel:unused@ep-korvel-test.eu-central-1.aws.neon.tech/${name}`);
    } else {
      const url = new URL(target.serverUrl);
      url.pathname = `/${name}`;
      db = createDb(url.toString());
    }
  }
  const expected = target.kind === 'postgres' ? 'pg' : target.kind;
  if (db.kind !== expected) throw new Error(`expected the ${expected} adapter, got ${db.kind}`);
  await migrate(db, migrations);
  return db;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when there is none. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary reply shapes
}

export interface CallOptions {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  token?: string;
  ip?: string;
}

export interface Api {
  db: Db;
  url: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** An active account with `role` and a confirmed TOTP factor (its secret kept by the harness). */
  createAdmin(email: string, password: string, role?: Role): Promise<void>;
  /** Both sign-in steps: the password, then the current TOTP code; returns the full session's token. */
  login(email: string, password: string, ip?: string): Promise<string>;
  /** The current TOTP code of an account the harness created. */
  totpCode(email: string, timestamp?: number): string;
  /** Waits for the work functions handed to `context.waitUntil` (the mail attempt after a request). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startApi(): Promise<Api> {
  process.env.JWT_SECRET = TEST_JWT_SECRET;
  const db = await openTestDb();
  useDatabase(db);
  const routes = await loadRoutes();
  // Netlify keeps a function alive for what it hands to waitUntil; the harness keeps track of it instead.
  const background = new Set<Promise<unknown>>();
  const settle = async () => {
    while (background.size > 0) await Promise.allSettled([...background]);
  };

  const server: Server = createServer(async (req, res) => {
    // The origin the client addressed, as on Netlify, where `req.url` carries the site's own host.
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const match = routes
      .map((route) => ({ route, result: route.pattern.exec({ pathname: url.pathname }) }))
      .find(({ route, result }) => result && (!route.methods || route.methods.includes(req.method ?? 'GET')));
    if (!match?.result) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('No function here (a static page would answer).');
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? bodyStream(req) : undefined,
      duplex: 'half',
    } as RequestInit);
    const context: RequestContext = {
      ip: String(req.headers[CLIENT_IP_HEADER] ?? req.socket.remoteAddress),
      params: Object.fromEntries(Object.entries(match.result.pathname.groups).map(([k, v]) => [k, v ?? ''])),
      waitUntil: (promise) => {
        const tracked = promise.finally(() => background.delete(tracked));
        background.add(tracked);
      },
    };
    const response = await match.route.handler(request, context);
    // Netlify hands a function the whole body. What this one left unread (a 413 from Content-Length) is read
    // and dropped before the answer, so the client's upload ends normally instead of racing a closed socket.
    if (hasBody && !req.complete) {
      req.removeAllListeners('data');
      req.resume();
      await finished(req).catch(() => undefined);
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  // Idle connections are closed by the client only, as with the neon proxy (neon-proxy.ts): a test busy for
  // over 5 s in synchronous work (git, scrypt) otherwise sent its next call on a socket the server had closed.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const call: Api['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.ip) headers[CLIENT_IP_HEADER] = options.ip;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    // Redirects are answers to check (a form post's 303), not hops to follow.
    const response = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };

  // The TOTP secrets of the accounts this harness created, by lower-cased e-mail.
  const secrets = new Map<string, string>();
  const totpCode = (email: string, timestamp = Date.now()) => {
    const secret = secrets.get(email.toLowerCase());
    if (!secret) throw new Error(`no TOTP secret for ${email}: create it with api.createAdmin`);
    return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp });
  };

  return {
    db,
    url: base,
    call,
    createAdmin: async (email, password, role = 'owner') => {
      await upsertAdmin(db, email, await fixtureHash(password), new Date(), role);
      const [{ id }] = (await db.query<{ id: number }>(
        `UPDATE admins SET role = $2 WHERE lower(email) = lower($1) RETURNING id`,
        [email, role],
      )) as [{ id: number }];
      const { secret } = newTotpSecret(email);
      await setPendingTotp(db, id, encryptSecret(secret));
      await confirmTotp(db, id, 0);
      secrets.set(email.toLowerCase(), secret);
    },
    login: async (email, password, ip = '198.51.100.1') => {
      const first = await call('POST', '/admin/login', { json: { email, password }, ip });
      if (first.status !== 200 || !first.body.mfa)
        throw new Error(`login failed: ${first.status} ${first.text}`);
      // A real authenticator shows each code once per 30 s and a code is accepted once; tests sign in far more
      // often, so the harness forgets the account's last used step. Replay is tested through the endpoint.
      await db.query('UPDATE admins SET totp_last_step = NULL WHERE lower(email) = lower($1)', [email]);
      const second = await call('POST', '/admin/login/mfa', {
        json: { ticket: first.body.mfa.ticket, method: 'totp', code: totpCode(email) },
        ip,
      });
      if (second.status !== 200) throw new Error(`second step failed: ${second.status} ${second.text}`);
      return second.body.token as string;
    },
    totpCode,
    settle,
    close: async () => {
      await settle();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      useDatabase(undefined);
      await db.close();
    },
  };
}
