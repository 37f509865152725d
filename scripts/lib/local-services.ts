/**
 * What `npm run dev` and `npm run preview` need before they serve: a database (embedded unless DATABASE_URL
 * is set), a JWT secret (kept in .data/ so admin sessions survive restarts), an SMTP server (a local catcher
 * unless SMTP_URL is set) and SITE_URL for the links in mail. Sets them in process.env. Once the server is
 * up, {@link LocalServices.startMailWorker} runs the scheduled mail worker every few seconds.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startEmbeddedDatabase } from '../../src/server/db/embedded.ts';
import { refusalsFrom, startMailCatcher } from './mail-catcher.ts';

const dataRoot = fileURLToPath(new URL('../../.data/', import.meta.url));

/** How often dev and preview run the mail worker (production: every minute, plus once after each request). */
export const MAIL_WORKER_INTERVAL_MS = 5_000;

function localJwtSecret(): string {
  const file = `${dataRoot}jwt-secret`;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataRoot, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface LocalServices {
  /** Lines to print once the server is up. */
  banner: string[];
  /** Whether the database is the embedded PGlite (not DATABASE_URL). */
  embedded: boolean;
  /** Calls the scheduled mail worker of the server at `siteUrl` every few seconds until {@link stop}. */
  startMailWorker(): void;
  stop(): Promise<void>;
}

/** The SMTP server mail leaves through: SMTP_URL, or a local catcher whose inbox the banner names. */
async function localMail(mailFile: string): Promise<{ banner: string; stop: () => Promise<void> }> {
  // A file left by a server that was killed names a catcher that is gone, or another process's by now.
  rmSync(mailFile, { force: true });
  if (process.env.SMTP_URL) {
    const { protocol, host } = new URL(process.env.SMTP_URL);
    return { banner: `Mail: sent through SMTP_URL (${protocol}//${host})`, stop: async () => undefined };
  }
  const refusing = process.env.MAIL_CATCHER_REFUSE?.trim()
    ? ` (refusing ${process.env.MAIL_CATCHER_REFUSE})`
    : '';
  // Well-known local ports when free (MailDev's), any free ones otherwise.
  // MAIL_CATCHER_REFUSE (`gone@example.com=550,full@example.com=452`) makes it refuse those addresses.
  const refuse = refusalsFrom(process.env.MAIL_CATCHER_REFUSE);
  const catcher = await startMailCatcher({ smtpPort: 1025, httpPort: 1080, refuse }).catch(() =>
    startMailCatcher({ smtpPort: 0, httpPort: 0, refuse }),
  );
  process.env.SMTP_URL = catcher.smtpUrl;
  // Tests read where the catcher listens from this file, as they read the database URL from <dir>.url, and
  // check its id against the inbox's answers (several previews run side by side; ports get reused).
  writeFileSync(
    mailFile,
    JSON.stringify({ id: catcher.id, smtpUrl: catcher.smtpUrl, inboxUrl: catcher.inboxUrl }),
    { mode: 0o600 },
  );
  return {
    banner: `Mail: caught locally, nothing is delivered; read it at ${catcher.inboxUrl}${refusing}`,
    stop: async () => {
      rmSync(mailFile, { force: true });
      await catcher.stop();
    },
  };
}

/**
 * @param name the .data/ subdirectory of the embedded database (`dev`, `preview`), unless KORVEL_DATA_DIR is set.
 * @param siteUrl the server's own address: SITE_URL for links in mail, and where the mail worker is called.
 */
export async function startLocalServices(name: string, siteUrl: string): Promise<LocalServices> {
  process.env.JWT_SECRET ??= localJwtSecret();
  process.env.SITE_URL = siteUrl;
  const dataDir = process.env.KORVEL_DATA_DIR ?? `${dataRoot}${name}`;
  const mail = await localMail(`${dataDir}.mail.json`);
  const banner: string[] = [];
  let stopDatabase = async () => undefined as void;
  const embedded = !process.env.DATABASE_URL;
  if (!embedded) {
    banner.push('Database: DATABASE_URL (migrate it with npm run db:migrate)');
  } else {
    const database = await startEmbeddedDatabase({ dataDir, port: Number(process.env.PGLITE_PORT ?? 0) });
    process.env.DATABASE_URL = database.url;
    stopDatabase = database.stop;
    banner.push(
      `Database: embedded PGlite in ${dataDir} at ${database.url}`,
      ...(database.admin
        ? [
            `Dev owner: ${database.admin.email} / ${database.admin.password}`,
            database.admin.otpauth
              ? `Dev owner's authenticator (scan or paste into a TOTP app): ${database.admin.otpauth}`
              : `Dev owner's authenticator: none yet; the first sign-in asks to set one up`,
          ]
        : [`Dev owner: see ${dataDir}.admin.json, or create one with npm run admin:create`]),
    );
  }
  banner.push(mail.banner);

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failures = 0;
  let reported = false;
  const runWorker = async () => {
    let problem = '';
    try {
      const response = await fetch(`${siteUrl}/.netlify/functions/mail-worker`, { method: 'POST' });
      if (!response.ok) problem = `the mail worker answered ${response.status}`;
      await response.body?.cancel();
    } catch (error) {
      problem = `the mail worker could not be reached (${(error as Error).message})`;
    }
    // The server may still be starting: speak up after three failures in a row, and again on recovery.
    failures = problem ? failures + 1 : 0;
    if (failures === 3) console.log(`Mail: ${problem}; mail waits in the outbox`);
    if (!problem && failures === 0 && reported) console.log('Mail: the worker runs again');
    reported = failures >= 3;
    if (!stopped) timer = setTimeout(() => void runWorker(), MAIL_WORKER_INTERVAL_MS).unref();
  };

  return {
    banner,
    embedded,
    startMailWorker: () => {
      timer ??= setTimeout(() => void runWorker(), 1_000).unref();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await mail.stop();
      await stopDatabase();
    },
  };
}
