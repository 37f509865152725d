/**
 * The worker's batches against a real SMTP server: a welcome rendered once still carries each recipient's own
 * unsubscribe link, a batch reads the state of its subscribers when it is claimed, a batch claimed ahead
 * is handed back untouched when the server goes away, and each mail is recorded as soon as it is accepted.
 */
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { verifyLinkToken } from '../../src/server/mail/links.ts';
import { processOutbox } from '../../src/server/mail/worker.ts';
import { type Api } from './support/harness.ts';
import { linkIn, runWorker, SITE_URL, useMailApi, type TestMail } from './support/mail.ts';

let api: Api;
let mail: TestMail;

useMailApi({ email: 'batches@korvel.example', password: 'a long enough password' }, {}, (started) => {
  ({ api, mail } = started);
});
beforeEach(async () => {
  await api.db.query('DELETE FROM outbox');
  await api.db.query('DELETE FROM subscribers');
});

/** `count` confirmed subscribers, each with a welcome mail queued; their ids in order. */
async function queueWelcomes(count: number): Promise<number[]> {
  const rows = await api.db.query<{ id: number }>(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at)
     SELECT 'batch' || n || '@list.example', 'confirmed', now(), now() FROM generate_series(1, $1::int) AS n
     RETURNING id`,
    [count],
  );
  await api.db.query(
    `INSERT INTO outbox (idempotency_key, template, recipient, subscriber_id)
     SELECT 'batch-welcome.' || id, 'newsletter-welcome', email, id FROM subscribers`,
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

const welcomes = () => mail.catcher.messages().filter((m) => m.envelope.to[0]?.startsWith('batch'));

describe('batches', () => {
  test('a welcome rendered once for the batch still carries each recipient their own unsubscribe link', async () => {
    const ids = await queueWelcomes(7);
    const report = await runWorker(api.db, 3);
    expect(report).toMatchObject({ sent: 7, retrying: 0, failed: 0, cancelled: 0 });
    const caught = welcomes();
    expect(caught).toHaveLength(7);
    const prefix = `${SITE_URL}/newsletter/unsubscribe?token=`;
    const owners: number[] = [];
    for (const copy of caught) {
      const link = linkIn(copy, prefix);
      expect(copy.headers['list-unsubscribe']).toBe(`<${link}>`);
      expect(copy.html).toContain(link);
      expect(copy.html).not.toContain('unsubscribe.invalid');
      const check = await verifyLinkToken('unsubscribe', link.slice(prefix.length));
      expect(check.ok).toBe(true);
      if (check.ok) owners.push(check.claims.subscriberId);
      expect(copy.envelope.to).toEqual([`batch${ids.indexOf(owners.at(-1)!) + 1}@list.example`]);
    }
    expect(owners.sort((a, b) => a - b)).toEqual(ids);
  });

  test('a subscriber who left before the batch was claimed gets nothing; the rest of the batch goes', async () => {
    const ids = await queueWelcomes(4);
    await api.db.query('DELETE FROM subscribers WHERE id = $1', [ids[1]]);
    const report = await runWorker(api.db);
    expect(report).toMatchObject({ sent: 3, cancelled: 1 });
    expect(
      welcomes()
        .map((m) => m.envelope.to[0])
        .sort(),
    ).toEqual(['batch1@list.example', 'batch3@list.example', 'batch4@list.example']);
    const [left] = await api.db.query<{ status: string; last_error: string }>(
      'SELECT status, last_error FROM outbox WHERE subscriber_id = $1',
      [ids[1]],
    );
    expect(left).toEqual({ status: 'cancelled', last_error: 'the address is no longer on the list' });
  });

  test('when the server goes away, the batch claimed ahead is handed back untouched and sent once later', async () => {
    await queueWelcomes(6);
    await mail.catcher.stopSmtp();
    try {
      const report = await processOutbox(api.db, { batchSize: 2 });
      expect(report).toMatchObject({ sent: 0, retrying: 2 });
      const rows = await api.db.query<{ status: string; attempts: number; failure_kind: string | null }>(
        'SELECT status, attempts, failure_kind FROM outbox ORDER BY id',
      );
      expect(rows.filter((r) => r.failure_kind === 'connection')).toHaveLength(2);
      // Nothing stays leased: what was claimed but not tried is pending again, its attempt not counted.
      expect(rows.filter((r) => r.status === 'sending')).toHaveLength(0);
      expect(rows.filter((r) => r.status === 'pending' && r.attempts === 0)).toHaveLength(4);
    } finally {
      await mail.catcher.startSmtp();
    }
    await runWorker(api.db);
    const to = welcomes().map((m) => m.envelope.to[0]);
    expect(to).toHaveLength(6);
    expect(new Set(to).size).toBe(6);
  });

  test('each mail is recorded once the server accepts it, not when the whole batch is out: a worker killed mid-batch repeats only the mail still in flight', async () => {
    await queueWelcomes(6);
    const smtp = nodemailer.createTransport(process.env.SMTP_URL);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The SMTP server takes its time with one recipient; the other five are accepted at once.
    const transport = {
      sendMail: async (message: SendMailOptions) => {
        if (message.to === 'batch6@list.example') await held;
        return smtp.sendMail(message);
      },
    } as unknown as Transporter;
    const working = processOutbox(api.db, { batchSize: 6, transport });
    try {
      await vi.waitFor(
        async () => {
          const rows = await api.db.query<{ recipient: string; status: string }>(
            'SELECT recipient, status FROM outbox ORDER BY id',
          );
          expect(rows.filter((r) => r.status === 'sent')).toHaveLength(5);
          expect(rows.filter((r) => r.status === 'sending').map((r) => r.recipient)).toEqual([
            'batch6@list.example',
          ]);
        },
        { timeout: 60_000, interval: 50 },
      );
    } finally {
      release();
    }
    expect(await working).toMatchObject({ sent: 6 });
    smtp.close();
    expect(welcomes()).toHaveLength(6);
  });
});
