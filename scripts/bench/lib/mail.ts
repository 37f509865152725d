/**
 * What the mail benchmarks share: the bare-transport baseline, a memory sampler, and their Markdown tables.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Queryable } from '../../../src/server/db/index.ts';
import { openDb } from '../../../src/server/db/open.ts';
import type { ComposedMail } from '../../../src/server/mail/compose.tsx';
import { mailSettings } from '../../../src/server/mail/settings.ts';
import { createTransport } from '../../../src/server/mail/worker.ts';
import { migrate } from '../../../src/server/migrate.ts';
import { startMailCatcher, type MailCatcherOptions } from '../../lib/mail-catcher.ts';

/**
 * A counting catcher (it parses nothing), mail settings pointing at it, and a fresh embedded database holding
 * `count` confirmed subscribers `reader<n>@bench.example`; `refuse` makes the catcher refuse some of them.
 */
export async function startMailBench(count: number, refuse?: MailCatcherOptions['refuse']) {
  process.env.JWT_SECRET ??= randomBytes(48).toString('base64url');
  const catcher = await startMailCatcher({ keep: 0, httpPort: false, refuse });
  const settings = { ...mailSettings({ SITE_URL: 'http://127.0.0.1:8888' }), smtpUrl: catcher.smtpUrl };
  const db = await openDb('');
  await migrate(db);
  await addConfirmedReaders(db, count, 'bench.example');
  return { catcher, settings, db };
}

/** `count` confirmed subscribers `reader<n>@<domain>`, n from 1. */
export async function addConfirmedReaders(db: Queryable, count: number, domain: string): Promise<void> {
  await db.query(
    `INSERT INTO subscribers (email, consent_version, source_page, status, confirmed_at, consented_at)
     SELECT 'reader' || n || '@' || $2::text, 'newsletter-2026-11', '/blog', 'confirmed', now(), now()
     FROM generate_series(1, $1::int) AS n`,
    [count, domain],
  );
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/**
 * What SMTP alone costs: one pre-rendered mail sent `count` times through a fresh pooled transport, `batch` at
 * a time, three times; the median rate in mails per second.
 */
export async function bareTransportRate(
  smtpUrl: string,
  from: string,
  mail: ComposedMail,
  count: number,
  batch: number,
): Promise<number> {
  const rates: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const transport = createTransport(smtpUrl);
    const started = performance.now();
    for (let sent = 0; sent < count; sent += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, count - sent) }, (_, i) =>
          transport.sendMail({
            from,
            to: mail.to,
            subject: mail.subject,
            html: mail.html,
            text: mail.text,
            headers: mail.headers,
            messageId: `<baseline.${run}.${sent + i}@bench.example>`,
          }),
        ),
      );
    }
    rates.push(count / ((performance.now() - started) / 1000));
    transport.close();
  }
  return median(rates);
}

export interface MemorySample {
  done: number;
  rss: number;
  heap: number;
}

/** Samples the process's memory every 100 ms, against a progress count (mails sent so far). */
export function sampleMemory(progress: () => number) {
  const samples: MemorySample[] = [];
  const take = () => {
    const { rss, heapUsed } = process.memoryUsage();
    samples.push({ done: progress(), rss, heap: heapUsed });
  };
  take();
  const timer = setInterval(take, 100);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** A two-column Markdown table. */
export function printMeasures(rows: ReadonlyArray<readonly [string, string]>): void {
  console.log('| measure                                          |           value |');
  console.log('| ------------------------------------------------ | --------------: |');
  for (const [label, value] of rows) console.log(`| ${label.padEnd(48)} | ${value.padStart(15)} |`);
}

/** Memory at each fifth of the run, then the peak. */
export function printMemory(samples: readonly MemorySample[], total: number): void {
  console.log('\nmemory while the worker ran (MB):\n');
  console.log('| mails sent | rss | heap used |');
  console.log('| ---------: | --: | --------: |');
  for (const fifth of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
    const at = samples.find((s) => s.done >= fifth * total) ?? samples.at(-1)!;
    console.log(
      `| ${String(at.done).padStart(10)} | ${mb(at.rss).padStart(3)} | ${mb(at.heap).padStart(9)} |`,
    );
  }
  const peak = samples.reduce((a, s) => (s.rss > a.rss ? s : a));
  console.log(`\npeak rss ${mb(peak.rss)} MB at ${peak.done} mails sent`);
}
