/**
 * The function bundles Netlify deploys, run as Netlify runs them: built by @netlify/zip-it-and-ship-it with
 * netlify.toml's settings (scripts/lib/function-bundles.ts), unzipped into a temporary directory outside the
 * repository and loaded by a plain Node process there (scripts/lib/function-host.ts, copied beside them),
 * which cannot reach the repository's node_modules. So a module the bundler left out, a dynamic import it
 * missed, a native module or a file read at run time (React Email rendering, calendar files) fails here,
 * where the in-process API tests would not notice. The database is the run's target: the embedded PGlite
 * socket server, a real PostgreSQL, or PostgreSQL through the Neon driver.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { freshFunctionZips, unzipFunctions } from '../../scripts/lib/function-bundles.ts';
import { startMailCatcher, type MailCatcher } from '../../scripts/lib/mail-catcher.ts';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { startEmbeddedDatabase } from '../../src/server/db/embedded.ts';
import {
  addressTag,
  campaignClickSignature,
  campaignViewSignature,
  signLinkToken,
  signMeetingLinkToken,
} from '../../src/server/mail/links.ts';
import { migrate } from '../../src/server/migrate.ts';
import { encryptSecret, newTotpSecret } from '../../src/server/factors.ts';
import { upsertAdmin } from '../../src/server/repositories/admins.ts';
import { confirmTotp, setPendingTotp } from '../../src/server/repositories/factors.ts';
import { signAdminToken } from '../../src/server/tokens.ts';
import { TEST_JWT_SECRET } from '../api/support/harness.ts';
import { fixtureHash } from '../support/fixture-password.ts';

/** A visitor's browser: the beacon and the click redirect leave bots uncounted, without the database. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const functionsDir = join(repo, 'netlify', 'functions');
const ADMIN = { email: 'bundles@korvel.example', password: 'a bundle admin passphrase' };
const ADMIN_TOTP = newTotpSecret(ADMIN.email).secret;
const SITE_URL = 'https://site.korvel.test';
const ISSUE = {
  subject: 'Annex 1 two years on: what inspectors ask about CCS',
  markdown: '## What changed\n\nA written **contamination control strategy** for every sterile line.',
};
const MESSAGE = {
  fullName: 'Marija Petrović',
  company: 'Hemofarm Pilot Plant',
  email: 'marija.petrovic@plant.example',
  subject: 'Cleanroom upgrade for a fill-finish line',
  message: 'We are planning to upgrade a Grade B corridor and need a basic design by March.',
  privacy: true,
  fillMs: 42_000,
  source: '/contact',
};

let work: string;
let database: { url: string; env: Record<string, string>; db: Db; stop: () => Promise<void> };
let catcher: MailCatcher;
let withDb: Host;
let withoutDb: Host;

interface Host {
  url: string;
  functions: string[];
  output: () => string;
  stop: () => Promise<void>;
}

/** A database of the run's target, migrated, with its URL and what else the functions need to reach it. */
async function targetDatabase(dir: string): Promise<typeof database> {
  const target = inject('apiDb');
  if (target.kind === 'pglite') {
    const embedded = await startEmbeddedDatabase({ dataDir: join(dir, 'pglite') });
    const db = createDb(embedded.url);
    return {
      url: embedded.url,
      env: {},
      db,
      stop: async () => (await db.close(), await embedded.stop()),
    };
  }
  const name = `korvel_bundles_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: target.serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  let url: string;
  let env: Record<string, string> = {};
  if (target.kind === 'neon') {
    process.env.NEON_LOCAL_PROXY = target.proxy;
    env = { NEON_LOCAL_PROXY: target.proxy };
    url = `postgres://korvel:unused@ep-korvel-test.eu-central-1.aws.neon.tech/${name}`;
  } else {
    const server = new URL(target.serverUrl);
    server.pathname = `/${name}`;
    url = server.toString();
  }
  const db = createDb(url);
  await migrate(db);
  return { url, env, db, stop: () => db.close() };
}

/** Starts the host in `runDir` with only the environment given: no NODE_PATH, no NODE_OPTIONS, cwd outside. */
async function startHost(runDir: string, env: Record<string, string>): Promise<Host> {
  const child: ChildProcess = spawn(process.execPath, ['function-host.mts', runDir, '0'], {
    cwd: runDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = await new Promise<{ url: string; functions: string[] }>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) =>
      reject(new Error(`the function host exited with ${code}:\n${output.slice(-3000)}${text}`)),
    );
  });
  return {
    ...ready,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Both sign-in steps inside the bundles: the password, then the authenticator code. */
async function signIn(host: Host): Promise<string> {
  const first = await call(host, 'POST', '/admin/login', { json: ADMIN });
  expect(first.status).toBe(200);
  // Each code is accepted once; the tests sign in more often than every 30 s.
  await database.db.query('UPDATE admins SET totp_last_step = NULL WHERE email = $1', [ADMIN.email]);
  const code = OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(ADMIN_TOTP) });
  const second = await call(host, 'POST', '/admin/login/mfa', {
    json: { ticket: first.body.mfa.ticket, method: 'totp', code },
  });
  expect(second.status).toBe(200);
  return second.body.token as string;
}

async function call(
  host: Host,
  method: string,
  path: string,
  init: { json?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: body as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- replies of every shape
}

/**
 * Unzipping 32 bundles, starting a database server and two hosts that load every bundle: a minute on a quiet
 * machine, several on one shared with a dozen processes. The bound only catches a start that hangs.
 */
const START_BOUND_MS = 10 * 60_000;

beforeAll(async () => {
  process.env.JWT_SECRET = TEST_JWT_SECRET;
  work = mkdtempSync(join(tmpdir(), 'korvel-bundles-'));
  // Outside the repository, and no node_modules on the way up that Node could resolve a package from.
  expect(work.startsWith(repo)).toBe(false);
  for (let dir = work; dir !== parse(dir).root; dir = dirname(dir))
    expect(existsSync(join(dir, 'node_modules')), `${dir}/node_modules`).toBe(false);

  // The zips npm test built once (scripts/build-functions.ts), or built here when they are missing or stale.
  const run = join(work, 'run');
  await unzipFunctions((await freshFunctionZips()).zips, run);
  cpSync(join(repo, 'scripts', 'lib', 'function-host.ts'), join(run, 'function-host.mts'));

  database = await targetDatabase(work);
  await upsertAdmin(database.db, ADMIN.email, await fixtureHash(ADMIN.password));
  const [{ id }] = (await database.db.query<{ id: number }>('SELECT id FROM admins WHERE email = $1', [
    ADMIN.email,
  ])) as [{ id: number }];
  await setPendingTotp(database.db, id, encryptSecret(ADMIN_TOTP));
  await confirmTotp(database.db, id, 0);
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: false });
  const common = { JWT_SECRET: TEST_JWT_SECRET, SITE_URL, ...database.env };
  withDb = await startHost(run, { ...common, DATABASE_URL: database.url, SMTP_URL: catcher.smtpUrl });
  withoutDb = await startHost(run, common);
}, START_BOUND_MS);

afterAll(async () => {
  await withDb?.stop();
  await withoutDb?.stop();
  await catcher?.stop();
  await database?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the deployed function bundles, outside the repository', () => {
  test('every function in netlify/functions is a bundle the host loaded', () => {
    const sources = readdirSync(functionsDir).map((file) => parse(file).name);
    expect([...withDb.functions].sort()).toEqual(sources.sort());
  });

  test('GET /api/health answers 200 with mail configured', async () => {
    const reply = await call(withDb, 'GET', '/api/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, mail: 'configured' });
  });

  test('a sign-up answers 202, sends its confirmation mail, and the admin lists it with 200', async () => {
    const email = `reader-${randomBytes(3).toString('hex')}@plant.example`;
    const signUp = await call(withDb, 'POST', '/api/newsletter', {
      json: { email, consent: true, source: '/blog' },
    });
    expect(signUp.status).toBe(202);

    // The attempt after the request renders the React Email template inside the bundle and sends it.
    const mails = () => catcher.messages().filter((m) => m.envelope.to.includes(email));
    await expect
      .poll(() => mails().length, { timeout: 120_000 })
      .toBe(1)
      .catch((error: Error) => {
        throw new Error(`${error.message}; the host said:\n${withDb.output().slice(-2000)}`);
      });
    const mail = mails()[0]!;
    expect(mail.html).toContain(`${SITE_URL}/newsletter/confirm?token=`);
    expect(mail.text).toContain(`${SITE_URL}/newsletter/confirm?token=`);

    const list = await call(withDb, 'GET', '/api/newsletter', { token: await signIn(withDb) });
    expect(list.status).toBe(200);
    expect((list.body as unknown as { email: string }[]).map((row) => row.email)).toContain(email);
  });

  test('a newsletter issue preview renders its Markdown and React Email inside the bundle', async () => {
    const preview = await call(withDb, 'POST', '/api/campaign-preview', {
      token: await signIn(withDb),
      json: ISSUE,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.html).toContain('<strong>contamination control strategy</strong>');
    expect(preview.body.text).toContain('WHAT CHANGED');
  });

  test('login answers 200 for the right password and 401 for a wrong one; the second step gives the token', async () => {
    expect(typeof (await signIn(withDb))).toBe('string');
    const wrong = await call(withDb, 'POST', '/admin/login', {
      json: { email: ADMIN.email, password: 'not the passphrase at all' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });

  test('the meeting calendar file and the scheduled mail worker run', async () => {
    const start = new Date(Math.ceil(Date.now() / 1_800_000 + 48) * 1_800_000).toISOString();
    const uid = '0b6f3c2e-5d1a-4c8e-9f3b-7a2d4e6c8b10';
    const ics = await call(withDb, 'GET', `/api/meeting.ics?start=${encodeURIComponent(start)}&uid=${uid}`);
    expect(ics.status).toBe(200);
    expect(ics.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const worker = await call(withDb, 'POST', '/.netlify/functions/mail-worker');
    expect(worker.status).toBe(200);
    expect(worker.body).toHaveProperty('mail');
  });

  test('without DATABASE_URL every function that needs the database answers 503 server_not_configured', async () => {
    const token = await signAdminToken(
      1,
      randomUUID(),
      new TextEncoder().encode(TEST_JWT_SECRET),
      new Date(0),
    );
    const link = (purpose: 'confirm' | 'unsubscribe' | 'preferences') =>
      signLinkToken(purpose, { subscriberId: 1, tag: addressTag('reader@plant.example') });
    const meetingLink = (purpose: 'cancel' | 'reschedule') =>
      signMeetingLinkToken(
        purpose,
        { inquiryId: 1, tag: addressTag('visitor@plant.example'), moves: 0 },
        new Date(Date.now() + 86_400_000),
      );
    const requests: [
      string,
      string,
      { json?: unknown; token?: string; headers?: Record<string, string> }?,
    ][] = [
      ['GET', '/api/health'],
      ['POST', '/admin/login', { json: ADMIN }],
      ['POST', '/admin/logout', { token }],
      ['POST', '/api/contact', { json: MESSAGE }],
      ['GET', '/api/inquiries', { token }],
      ['PATCH', '/api/inquiries/1', { token, json: { status: 'answered' } }],
      ['POST', '/api/inquiries/1/meeting', { token, json: { decision: 'decline', note: 'Away that week.' } }],
      ['POST', '/api/mail/1/retry', { token }],
      ['GET', '/api/meeting-slots'],
      ['GET', `/newsletter/confirm?token=${await link('confirm')}`],
      ['GET', `/newsletter/unsubscribe?token=${await link('unsubscribe')}`],
      ['GET', `/newsletter/preferences?token=${await link('preferences')}`],
      ['GET', `/meeting/cancel?token=${await meetingLink('cancel')}`],
      ['GET', `/meeting/reschedule?token=${await meetingLink('reschedule')}`],
      [
        'POST',
        '/api/newsletter',
        { json: { email: 'reader@plant.example', consent: true, source: '/blog' } },
      ],
      ['GET', '/api/newsletter', { token }],
      ['DELETE', '/api/newsletter/1', { token }],
      ['GET', '/api/campaigns', { token }],
      ['GET', '/api/campaigns/1', { token }],
      ['GET', '/api/campaigns/1/audience', { token }],
      ['POST', '/api/campaigns/1/test', { token }],
      ['POST', '/api/campaigns/1/send', { token }],
      ['POST', '/api/campaigns/1/cancel', { token }],
      ['POST', '/api/campaigns/1/duplicate', { token }],
      ['PUT', '/api/campaigns/1/archive', { token, json: { inArchive: false } }],
      ['POST', '/api/campaign-preview', { token, json: ISSUE }],
      ['GET', `/newsletter/issue/1?sig=${campaignViewSignature(1)}`],
      ['GET', '/newsletter'],
      ['GET', '/api/insights', { token }],
      // A browser's beacon (a bot's is answered without the database).
      [
        'POST',
        '/api/collect',
        { json: { path: '/pharma', width: 1440 }, headers: { 'user-agent': BROWSER } },
      ],
      ['POST', '/.netlify/functions/mail-worker'],
      // A provider webhook fails closed before the database: its secret is not set either.
      ['POST', '/api/mail/events/mailgun', { json: {} }],
      // So does the inbound report route: MAIL_INBOUND_SECRET is not set.
      ['POST', '/api/mail/inbound', { headers: { authorization: `Bearer ${'x'.repeat(32)}` } }],
      ['GET', '/api/suppressions', { token }],
      ['GET', '/api/subscribers/import/1', { token }],
      ['POST', '/admin/login/mfa', { json: { ticket: 'A'.repeat(43), method: 'totp', code: '123456' } }],
      ['POST', '/admin/password-reset', { json: { email: 'someone@korvel.example' } }],
      ['GET', '/api/account', { token }],
      ['GET', '/api/team', { token }],
      ['GET', '/api/activity', { token }],
      ['GET', '/api/content', { token }],
    ];
    const answers = await Promise.all(
      requests.map(async ([method, path, init]) => {
        const reply = await call(withoutDb, method, path, init);
        return `${method} ${path.split('?')[0]} → ${reply.status} ${reply.body?.error?.code}`;
      }),
    );
    expect(answers).toEqual(
      requests.map(([method, path]) => `${method} ${path.split('?')[0]} → 503 server_not_configured`),
    );
    // A newsletter link still takes the reader to the article when its click cannot be counted.
    const article = 'https://site.korvel.test/blog/gmp';
    const click = await call(
      withoutDb,
      'GET',
      `/newsletter/click/1?url=${encodeURIComponent(article)}&sig=${campaignClickSignature(1, article)}`,
      { headers: { 'user-agent': BROWSER } },
    );
    expect([click.status, click.headers.get('location')]).toEqual([302, article]);
    // meeting-ics is the one function that never touches the database; it is covered above, as is the click.
    const covered = new Set(requests.map(([, path]) => path));
    expect(covered.size + 2).toBe(withoutDb.functions.length);
  });
});
