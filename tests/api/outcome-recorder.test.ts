/**
 * The worker records a batch's outcomes as they arrive (OutcomeRecorder in src/server/mail/worker.ts). An
 * outcome that arrives just as the recorder finds nothing more to record must start it again: left waiting, its
 * row would stay `sending` under its lease although the SMTP server accepted the mail, and be sent a second time
 * once the lease ran out. The window is a few microtasks wide, so the test lines the two up: the real catcher
 * accepts both mails, and the second send's completion is reported k microtasks after the first record
 * statement's rows come back, for k = 0…15.
 */
import type { Transporter } from 'nodemailer';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Db, Row } from '../../src/server/db/index.ts';
import { createTransport, processOutbox } from '../../src/server/mail/worker.ts';
import { type Api } from './support/harness.ts';
import { useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'recorder@korvel.example', password: 'a recording passphrase here' };
let api: Api;
let mail: TestMail;

useMailApi(ADMIN, { keep: 0 }, (started) => ({ api, mail } = started));
beforeEach(async () => {
  for (const table of ['outbox', 'campaigns', 'subscribers', 'inquiries'])
    await api.db.query(`DELETE FROM ${table}`);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const hops = (k: number) => {
  let p = Promise.resolve();
  for (let i = 0; i < k; i += 1) p = p.then(() => undefined);
  return p;
};

async function runOnce(k: number) {
  await api.db.query('DELETE FROM outbox');
  await api.db.query('DELETE FROM subscribers');
  await api.db.query(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     VALUES ('first${k}@list.example', 'confirmed', now(), now()), ('second${k}@list.example', 'confirmed', now(), now())`,
  );
  await api.db.query(
    `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id)
     SELECT 'recorded-welcome.' || id, 'newsletter-welcome', email, id FROM subscribers ORDER BY id`,
  );
  const held = `second${k}@list.example`;
  let accepted!: () => void;
  const heldAccepted = new Promise<void>((resolve) => (accepted = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const real = createTransport(process.env.SMTP_URL!, undefined);
  // The real transport; only the moment the held mail's acceptance is reported to the worker is chosen.
  const transport = {
    sendMail: async (options: { to: string }) => {
      const info = await real.sendMail(options as never);
      if (options.to === held) {
        accepted();
        await gate;
      }
      return info;
    },
    verify: () => real.verify(),
    close: () => real.close(),
  } as unknown as Transporter;
  let first = true;
  const db: Db = {
    ...api.db,
    query: async <T extends Row = Row>(sql: string, params?: readonly unknown[]) => {
      const rows = await api.db.query<T>(sql, params);
      if (first && sql.trimStart().startsWith('UPDATE outbox o SET status = r.status')) {
        first = false;
        await heldAccepted;
        void hops(k).then(release);
      }
      return rows;
    },
  };
  const report = await processOutbox(db, { batchSize: 2, transport });
  real.close();
  const rows = await api.db.query<{ recipient: string; status: string }>(
    'SELECT recipient, status FROM outbox ORDER BY id',
  );
  return { k, report, rows };
}

describe('OutcomeRecorder', () => {
  test('a send that completes right after a record statement is recorded too, and sent once', async () => {
    const lost = [];
    for (let k = 0; k <= 15; k += 1) {
      const run = await runOnce(k);
      const stuck = run.rows.filter((row) => row.status !== 'sent');
      if (stuck.length) {
        lost.push({ k, sentInReport: run.report.sent, stuck });
        break;
      }
    }
    // What becomes of a row left so: once its lease runs out the next run sends it again.
    await api.db.query(
      `UPDATE outbox SET lease_until = now() - interval '1 second' WHERE status = 'sending'`,
    );
    await processOutbox(api.db);
    const twice = [...mail.catcher.deliveries()].filter(([, times]) => times > 1);
    expect(lost).toEqual([]);
    expect(twice).toEqual([]);
  });
});
