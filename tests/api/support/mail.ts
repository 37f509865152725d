/**
 * Real SMTP for the API tests: the local mail catcher (scripts/lib/mail-catcher.ts) in this process, with
 * SMTP_URL, SITE_URL and MAIL_NOTIFY_TO pointing the functions at it. Tests assert what arrives there.
 */
import ICAL from 'ical.js';
import {
  startMailCatcher,
  type CaughtMail,
  type MailCatcher,
  type MailCatcherOptions,
} from '../../../scripts/lib/mail-catcher.ts';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Db } from '../../../src/server/db/index.ts';
import { processOutbox, type WorkerReport } from '../../../src/server/mail/worker.ts';
import { startApi, type Api } from './harness.ts';

export const SITE_URL = 'https://site.korvel.test';
export const NOTIFY_TO = 'leads@korvel.example';

const MAIL_ENV = ['SMTP_URL', 'SITE_URL', 'MAIL_NOTIFY_TO', 'MAIL_FROM'] as const;

export interface TestMail {
  catcher: MailCatcher;
  /** Puts the environment back as it was and stops the catcher. */
  stop(): Promise<void>;
}

export async function startTestMail(options: MailCatcherOptions = {}): Promise<TestMail> {
  const saved = Object.fromEntries(MAIL_ENV.map((name) => [name, process.env[name]]));
  const catcher = await startMailCatcher({ httpPort: false, ...options });
  process.env.SMTP_URL = catcher.smtpUrl;
  process.env.SITE_URL = SITE_URL;
  process.env.MAIL_NOTIFY_TO = NOTIFY_TO;
  delete process.env.MAIL_FROM;
  return {
    catcher,
    stop: async () => {
      for (const name of MAIL_ENV) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      await catcher.stop();
    },
  };
}

export interface MailApi {
  api: Api;
  mail: TestMail;
  /** A token of the signed-in admin. */
  token: string;
}

/**
 * A test file's API and catcher, with `admin` created and signed in, the catcher emptied before each test and
 * everything stopped after the file. `ready` receives them once they are up.
 * @example useMailApi(ADMIN, {}, (s) => ({ api, mail, token } = s));
 */
export function useMailApi(
  admin: { email: string; password: string },
  options: MailCatcherOptions,
  ready: (started: MailApi) => void,
): void {
  let started: MailApi | undefined;
  beforeAll(async () => {
    const mail = await startTestMail(options);
    const api = await startApi();
    await api.createAdmin(admin.email, admin.password);
    started = { api, mail, token: await api.login(admin.email, admin.password) };
    ready(started);
  });
  afterAll(async () => {
    await started?.api.close();
    await started?.mail.stop();
  });
  beforeEach(async () => {
    await started!.api.settle();
    started!.mail.catcher.clear();
  });
}

/** Makes every waiting mail due now, as if its backoff had passed. */
export async function dueNow(db: Db): Promise<void> {
  await db.query(`UPDATE outbox SET next_attempt_at = now() WHERE status = 'pending'`);
}

/** One run of the worker, as the scheduled function does it. */
export const runWorker = (db: Db, batchSize?: number): Promise<WorkerReport> =>
  processOutbox(db, { batchSize });

/** Every mail caught so far that went to `address`. */
export const mailTo = (catcher: MailCatcher, address: string) =>
  catcher.messages().filter((m) => m.envelope.to.includes(address));

/** The link in a mail that starts with `prefix`, e.g. `${SITE_URL}/newsletter/confirm?token=`. */
export function linkIn(mail: CaughtMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}[A-Za-z0-9_.~%-]+`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${prefix} in "${mail.subject}"`);
  return match[0];
}

/** The VEVENT of a mail's calendar attachment, parsed by ical.js, with the calendar's METHOD. */
export function calendarOf(mail: CaughtMail) {
  const file = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  if (!file) throw new Error(`no text/calendar attachment in "${mail.subject}"`);
  const calendar = new ICAL.Component(ICAL.parse(file.content));
  const event = calendar.getFirstSubcomponent('vevent')!;
  const value = (name: string) => event.getFirstPropertyValue(name);
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    contentType: file.contentType,
    uid: String(value('uid')),
    sequence: Number(value('sequence') ?? 0),
    status: String(value('status')),
    start: (value('dtstart') as ICAL.Time).toJSDate().toISOString(),
    end: (value('dtend') as ICAL.Time).toJSDate().toISOString(),
    url: value('url') === null ? undefined : String(value('url')),
    attendee: value('attendee') === null ? undefined : String(value('attendee')),
    /** Every ATTENDEE address, lower-cased (`mailto:…`). */
    attendees: event.getAllProperties('attendee').map((p) => String(p.getFirstValue()).toLowerCase()),
  };
}
