/**
 * The bad-input catalogue: every row is a request no honest client sends, with the status and error code it
 * must get. None may answer 500, and none may change a row it should not (checked after the table).
 */
import { SignJWT, generateKeyPair, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TYPE } from '../../src/server/tokens.ts';
import { startApi, TEST_JWT_SECRET, type Api, type CallOptions } from './support/harness.ts';
import { checkNoDb, noDb } from './support/no-db.ts';

const ADMIN = { email: 'catalogue@korvel.example', password: 'a long and careful passphrase' };
const secret = new TextEncoder().encode(TEST_JWT_SECRET);
let api: Api;
let adminId: number;
let token: string;
let subscriberId: number;
let inquiryId: number;

interface Row {
  name: string;
  method: string;
  /** A function when the path needs an id or token known only at run time. */
  path: string | (() => string);
  options?: CallOptions | (() => Promise<CallOptions>);
  status: number;
  code: string;
}

const signup = (json: unknown): CallOptions => ({ json });
const validSignup = { email: 'reader@plant.example', consent: true, source: '/blog' };
const login = (json: unknown): CallOptions => ({ json });
const withToken = (make: () => Promise<string>) => async (): Promise<CallOptions> => ({
  token: await make(),
});

/** A token like the real ones, with `change` applied to the builder; by default valid for an hour. */
function craft(
  change: (jwt: SignJWT) => SignJWT = (j) => j,
  header: Record<string, unknown> = {},
  key: Uint8Array | CryptoKey = secret,
) {
  return () => {
    // The shared token's session: each crafted token is refused for what `change` did, not for a missing one.
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    const jwt = new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE, ...header })
      .setSubject(String(adminId))
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h');
    return change(jwt).sign(key);
  };
}

/** Signs in, signs out, and hands back the now revoked token (the shared one is renewed as before). */
async function revokedSession(): Promise<CallOptions> {
  const session = await api.login(ADMIN.email, ADMIN.password);
  expect((await api.call('POST', '/admin/logout', { token: session })).status).toBe(204);
  token = await api.login(ADMIN.email, ADMIN.password);
  return { token: session };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const rows: Row[] = [
  // Bodies
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/api/newsletter',
    options: { body: '{"email": "a@b.example",', headers: { 'content-type': 'application/json' } },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'empty body',
    method: 'POST',
    path: '/api/newsletter',
    options: { body: '', headers: { 'content-type': 'application/json' } },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'JSON array instead of object',
    method: 'POST',
    path: '/api/newsletter',
    options: signup([validSignup]),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'JSON string instead of object',
    method: 'POST',
    path: '/api/newsletter',
    options: signup('reader@plant.example'),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'JSON null',
    method: 'POST',
    path: '/admin/login',
    options: login(null),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'wrong content type',
    method: 'POST',
    path: '/api/newsletter',
    options: { body: JSON.stringify(validSignup), headers: { 'content-type': 'text/plain' } },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'form-encoded body',
    method: 'POST',
    path: '/admin/login',
    options: {
      body: 'email=a%40b.example&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'missing content type',
    method: 'POST',
    path: '/api/newsletter',
    options: { body: new TextEncoder().encode(JSON.stringify(validSignup)) },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'charset other than UTF-8',
    method: 'POST',
    path: '/api/newsletter',
    options: {
      body: JSON.stringify(validSignup),
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'body over the sign-up cap',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, website: 'x'.repeat(4096) }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: '1 MB password',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: ADMIN.email, password: 'p'.repeat(1024 * 1024) }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'password over 1,024 characters',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: ADMIN.email, password: 'p'.repeat(1025) }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'extra field id',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, id: 1 }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'extra field __proto__',
    method: 'POST',
    path: '/api/newsletter',
    options: {
      body: `{"email":"proto@plant.example","consent":true,"source":"/","__proto__":{"admin":true}}`,
      headers: { 'content-type': 'application/json' },
    },
    status: 400,
    code: 'validation_failed',
  },
  {
    name: '__proto__ in login',
    method: 'POST',
    path: '/admin/login',
    options: {
      body: `{"email":"${ADMIN.email}","password":"${ADMIN.password}","__proto__":{}}`,
      headers: { 'content-type': 'application/json' },
    },
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'missing e-mail',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ consent: true, source: '/' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'missing consent',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ email: 'reader@plant.example', source: '/' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'consent as a string',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, consent: 'true' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'source that is a full URL',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, source: 'https://evil.example/' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'missing password',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: ADMIN.email }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'empty password',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: ADMIN.email, password: '' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'password as a number',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: ADMIN.email, password: 123456789012 }),
    status: 400,
    code: 'validation_failed',
  },
  // E-mail addresses
  {
    name: 'e-mail over 254 characters',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({
      ...validSignup,
      email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.example`,
    }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'e-mail with CR/LF',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, email: 'reader@plant.example\r\nBcc: all@plant.example' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'e-mail with NUL',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, email: 'reader\u0000@plant.example' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'e-mail with quotes',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, email: '"reader"@plant.example' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'e-mail with markup',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, email: '<script>alert(1)</script>@plant.example' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'IDN local part (not supported)',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, email: 'jovan.đorđević@plant.example' }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'SQL-looking e-mail',
    method: 'POST',
    path: '/api/newsletter',
    options: signup({ ...validSignup, email: "x'; DROP TABLE subscribers; --@plant.example" }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'SQL-looking login',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: "admin@korvel.example' OR '1'='1", password: "' OR '1'='1" }),
    status: 400,
    code: 'validation_failed',
  },
  {
    name: 'SQL-looking password',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: ADMIN.email, password: "' OR 1=1; DELETE FROM admins; --" }),
    status: 401,
    code: 'invalid_credentials',
  },
  {
    name: 'unknown e-mail',
    method: 'POST',
    path: '/admin/login',
    options: login({ email: 'nobody@korvel.example', password: ADMIN.password }),
    status: 401,
    code: 'invalid_credentials',
  },
  // Authorization header and tokens
  {
    name: 'no Authorization header',
    method: 'GET',
    path: '/api/newsletter',
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'Basic auth',
    method: 'GET',
    path: '/api/newsletter',
    options: {
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`,
      },
    },
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'empty bearer',
    method: 'GET',
    path: '/api/newsletter',
    options: { headers: { authorization: 'Bearer ' } },
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'garbage token',
    method: 'GET',
    path: '/api/newsletter',
    options: { token: 'not-a-token' },
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'two-part token',
    method: 'GET',
    path: '/api/newsletter',
    options: async () => ({ token: (await craft()()).split('.').slice(0, 2).join('.') }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'alg none',
    method: 'GET',
    path: '/api/newsletter',
    options: async () => ({
      token: `${new UnsecuredJWT({ sub: String(adminId), iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE }).setIssuedAt().setExpirationTime('1h').encode()}sig`,
    }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'HS512 with the right secret',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(craft((j) => j, { alg: 'HS512' })),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'RS256',
    method: 'GET',
    path: '/api/newsletter',
    options: async () => ({
      token: await craft((j) => j, { alg: 'RS256' }, (await generateKeyPair('RS256')).privateKey)(),
    }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'wrong secret',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(
      craft((j) => j, {}, new TextEncoder().encode('another-secret-that-is-also-32-bytes-long')),
    ),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'altered payload',
    method: 'GET',
    path: '/api/newsletter',
    options: async () => {
      const [h, , s] = (await craft()()).split('.');
      return {
        token: `${h}.${b64({ sub: String(adminId + 1), iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 })}.${s}`,
      };
    },
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'expired',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(
      craft((j) =>
        j
          .setIssuedAt(Math.floor(Date.now() / 1000) - 9 * 3600)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 3600),
      ),
    ),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'future nbf',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(craft((j) => j.setNotBefore('1h'))),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'missing exp',
    method: 'GET',
    path: '/api/newsletter',
    options: async () => ({
      token: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
        .setSubject(String(adminId))
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt()
        .sign(secret),
    }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'wrong iss',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(craft((j) => j.setIssuer('someone-else'))),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'wrong aud',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(craft((j) => j.setAudience('korvel-public'))),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'wrong typ',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(craft((j) => j, { typ: 'JWT' })),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'subject that is not an admin',
    method: 'GET',
    path: '/api/newsletter',
    options: withToken(craft((j) => j.setSubject('999999'))),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'token in the query string',
    method: 'GET',
    path: () => `/api/newsletter?token=${token}`,
    status: 400,
    code: 'token_in_query',
  },
  {
    name: 'access_token in the query string with a header',
    method: 'GET',
    path: () => `/api/newsletter?access_token=${token}`,
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'token_in_query',
  },
  {
    name: 'token reuse after logout',
    method: 'GET',
    path: '/api/newsletter',
    options: revokedSession,
    status: 401,
    // Logout revoked the session the token names.
    code: 'session_expired',
  },
  {
    name: 'logout with a revoked token',
    method: 'POST',
    path: '/admin/logout',
    options: revokedSession,
    status: 401,
    // Logout revoked the session the token names.
    code: 'session_expired',
  },
  // Query parameters
  {
    name: 'unknown query parameter',
    method: 'GET',
    path: '/api/newsletter?limit=5',
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'invalid_query',
  },
  {
    name: 'pageSize over 200',
    method: 'GET',
    path: '/api/newsletter?page=1&pageSize=201',
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'invalid_query',
  },
  {
    name: 'page 0',
    method: 'GET',
    path: '/api/newsletter?page=0&pageSize=10',
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'invalid_query',
  },
  {
    name: 'SQL in sort',
    method: 'GET',
    path: '/api/newsletter?sort=id;DROP%20TABLE%20subscribers',
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'invalid_query',
  },
  {
    name: 'repeated parameter',
    method: 'GET',
    path: '/api/newsletter?page=1&page=2',
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'invalid_query',
  },
  // Ids
  ...['abc', '1.5', '-1', '0', '1;DROP', '2147483648', '01', '1e3', '%20'].map((id) => ({
    name: `id ${id}`,
    method: 'DELETE',
    path: `/api/newsletter/${id}`,
    options: () => Promise.resolve({ token }),
    status: 400,
    code: 'invalid_id',
  })),
  {
    name: 'unknown id',
    method: 'DELETE',
    path: '/api/newsletter/2147483647',
    options: () => Promise.resolve({ token }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'delete without a token',
    method: 'DELETE',
    path: () => `/api/newsletter/${subscriberId}`,
    status: 401,
    code: 'unauthorized',
  },
  // PATCH /api/inquiries/{id}: mark as handled
  ...['abc', '0', '-1', '1.5', '2147483648', '01'].map((id) => ({
    name: `inquiry id ${id}`,
    method: 'PATCH',
    path: `/api/inquiries/${id}`,
    options: async () => ({ token, json: { handled: true } }),
    status: 400,
    code: 'invalid_id',
  })),
  ...(
    [
      ['handled as a string', { handled: 'true' }],
      ['handled as a number', { handled: 1 }],
      ['handled missing', {}],
      ['extra field handledAt', { handled: true, handledAt: '2020-01-01T00:00:00Z' }],
      ['array body', [{ handled: true }]],
    ] as const
  ).map(([name, json]) => ({
    name: `inquiry update: ${name}`,
    method: 'PATCH',
    path: () => `/api/inquiries/${inquiryId}`,
    options: async () => ({ token, json }),
    status: 400,
    code: 'validation_failed',
  })),
  {
    name: 'inquiry update as form data',
    method: 'PATCH',
    path: () => `/api/inquiries/${inquiryId}`,
    options: async () => ({
      token,
      body: 'handled=true',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'inquiry update over the body cap',
    method: 'PATCH',
    path: () => `/api/inquiries/${inquiryId}`,
    options: async () => ({ token, json: { handled: true, note: 'x'.repeat(2048) } }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'inquiry update without a token',
    method: 'PATCH',
    path: () => `/api/inquiries/${inquiryId}`,
    options: { json: { handled: true } },
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'unknown inquiry id',
    method: 'PATCH',
    path: '/api/inquiries/2147483647',
    options: async () => ({ token, json: { handled: true } }),
    status: 404,
    code: 'not_found',
  },
  // Methods
  ...(
    [
      ['PUT', '/api/newsletter', 'GET, HEAD, POST'],
      ['PATCH', '/api/newsletter', 'GET, HEAD, POST'],
      ['DELETE', '/api/newsletter', 'GET, HEAD, POST'],
      ['POST', '/api/newsletter/1', 'GET, HEAD, DELETE'],
      ['PUT', '/api/newsletter/1', 'GET, HEAD, DELETE'],
      ['POST', '/api/newsletter/1/export', 'GET, HEAD'],
      ['PUT', '/admin/login', 'POST'],
      ['DELETE', '/admin/login', 'POST'],
      ['GET', '/admin/logout', 'POST'],
      ['POST', '/api/inquiries', 'GET, HEAD'],
      ['GET', '/api/inquiries/1', 'PATCH'],
      ['DELETE', '/api/inquiries/1', 'PATCH'],
      ['POST', '/api/health', 'GET, HEAD'],
    ] as const
  ).map(([method, path, allow]) => ({
    name: `${method} ${path} (Allow: ${allow})`,
    method,
    path,
    status: 405,
    code: 'method_not_allowed',
    allow,
  })),
];

async function snapshot() {
  const subscribers = await api.db.query('SELECT id, email, created_at, status FROM subscribers ORDER BY id');
  const admins = await api.db.query('SELECT id, email, password_hash FROM admins ORDER BY id');
  const inquiries = await api.db.query('SELECT id, handled_at FROM inquiries ORDER BY id');
  return { subscribers, admins, inquiries };
}

let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  api = await startApi();
  await api.createAdmin(ADMIN.email, ADMIN.password);
  adminId = (await api.db.query<{ id: number }>('SELECT id FROM admins'))[0]!.id;
  token = await api.login(ADMIN.email, ADMIN.password);
  subscriberId = (
    await api.db.query<{ id: number }>(
      `INSERT INTO subscribers (email) VALUES ('stays@plant.example') RETURNING id`,
    )
  )[0]!.id;
  inquiryId = (
    await api.db.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, message, privacy_version)
       VALUES ('contact', 'Stays Open', 'open@plant.example', 'Keep me open.', 'privacy-2026-11') RETURNING id`,
    )
  )[0]!.id;
  before = await snapshot();
});
afterAll(() => api?.close());

/**
 * Rows refused before any statement runs: a wrong method, media type or body size on a public route (an admin
 * route checks its token in the database first). The same on every backend, so they run on PGlite only.
 */
const refusedUnread = (row: Row) =>
  [405, 413, 415].includes(row.status) && typeof row.options !== 'function' && !row.options?.token;

describe('bad-input catalogue', () => {
  checkNoDb(() => api);
  const check = async (row: Row) => {
    const path = typeof row.path === 'function' ? row.path() : row.path;
    const options = typeof row.options === 'function' ? await row.options() : row.options;
    // Each row from its own address, so the catalogue never trips a rate limit by itself.
    const reply = await api.call(row.method, path, { ...options, ip: `192.0.2.${rows.indexOf(row) + 1}` });
    expect(reply.status).toBe(row.status);
    expect(reply.body?.error?.code).toBe(row.code);
    expect(typeof reply.body.error.message).toBe('string');
    expect(reply.text).not.toMatch(/\bat .+:\d+:\d+|SELECT |INSERT |DELETE FROM|syntax error/);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    if ('allow' in row) expect(reply.headers.get('allow')).toBe(row.allow);
  };
  test.each(rows.filter(refusedUnread))('$name → $status $code', noDb, check);
  test.each(rows.filter((row) => !refusedUnread(row)))('$name → $status $code', check);

  test('changed no subscriber, admin or inquiry row', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
