/**
 * Scheduled issues, Duplicate and the public archive (issue 36) through real HTTP, the real scheduled function
 * (netlify/functions/mail-worker.mts) and a real SMTP server: scheduling, rescheduling and unscheduling with
 * their log lines, bad moments refused, the start exactly once under two concurrent runs, an issue overdue
 * after an outage started at the next run with its delay noted, a due issue nobody can receive taken off the
 * schedule, a duplicate of a sent issue, and the archive's list without anyone's link.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import mailWorker from '../../netlify/functions/mail-worker.mts';
import { archivePage } from '../../src/server/newsletter-archive.tsx';
import { archivedIssues } from '../../src/server/repositories/campaigns.ts';
import { type Api } from './support/harness.ts';
import { useMailApi, type TestMail } from './support/mail.ts';

const ADMIN = { email: 'scheduler@korvel.example', password: 'issue scheduler passphrase' };
let api: Api;
let mail: TestMail;
let token: string;

const ISSUE = {
  subject: 'Heat pumps in food plants: the pinch first',
  preheader: 'Where the heat goes before you buy the pump.',
  markdown: 'A pinch analysis tells you **where** a heat pump pays. Read [the article](/blog/gmp).',
};

const create = (json: Record<string, unknown> = ISSUE) => api.call('POST', '/api/campaigns', { token, json });
const patch = (id: number, json: Record<string, unknown>) =>
  api.call('PATCH', `/api/campaigns/${id}`, { token, json });
const get = (id: number) => api.call('GET', `/api/campaigns/${id}`, { token });
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** Moves an issue's scheduled moment into the past, as time passing would. */
const makeDue = (id: number, ago: string) =>
  api.db.query(`UPDATE campaigns SET scheduled_at = now() - $2::interval WHERE id = $1`, [id, ago]);

/** One run of the scheduled function, as Netlify (or the preview every 5 s) calls it. */
async function scheduledRun(): Promise<{ schedule: { started: number[]; unscheduled: number[] } }> {
  const response = await mailWorker();
  expect(response.status).toBe(200);
  return (await response.json()) as { schedule: { started: number[]; unscheduled: number[] } };
}

/** The log lines of one action about one issue (the log is append-only: earlier tests' lines stay). */
async function logged(action: string, id: number): Promise<string[]> {
  const rows = await api.db.query<{ target: string }>(
    `SELECT target FROM activity_log WHERE action = $1 AND target ~ ('^campaign ' || $2 || '\\M') ORDER BY id`,
    [action, id],
  );
  return rows.map((row) => row.target);
}

async function addReaders(count: number, lang = 'en'): Promise<void> {
  await api.db.query(
    `INSERT INTO subscribers (email, status, consented_at, confirmed_at, lang)
     SELECT 'reader' || n || '-' || $2 || '@list.example', 'confirmed', now(), now(), $2
     FROM generate_series(1, $1) AS n`,
    [count, lang],
  );
}

const copiesOf = (subject: string) => mail.catcher.messages().filter((m) => m.subject === subject);

useMailApi(ADMIN, {}, (started) => ({ api, mail, token } = started));
beforeEach(async () => {
  await api.db.query('DELETE FROM outbox');
  await api.db.query('DELETE FROM campaigns');
  await api.db.query('DELETE FROM subscribers');
  await api.db.query('DELETE FROM mail_events');
});

describe('scheduling', () => {
  test('a draft is scheduled, rescheduled and unscheduled, each change in the activity log', async () => {
    const first = inHours(2);
    const { status, body } = await create({ ...ISSUE, scheduledAt: first });
    expect(status).toBe(201);
    expect((await get(body.id)).body).toMatchObject({ status: 'draft', scheduledAt: first });

    const later = inHours(26);
    const moved = await patch(body.id, { scheduledAt: later.replace('Z', '+00:00') });
    expect(moved.status).toBe(200);
    expect(moved.body.scheduledAt).toBe(later);

    const off = await patch(body.id, { scheduledAt: null });
    expect(off.body.scheduledAt).toBeNull();
    // Changing the text leaves the schedule alone and logs nothing about it.
    await patch(body.id, { scheduledAt: first });
    expect((await patch(body.id, { subject: 'A new subject' })).body.scheduledAt).toBe(first);

    const [scheduled, again] = await logged('campaign.schedule', body.id);
    expect(scheduled).toMatch(new RegExp(`^campaign ${body.id} for .+ \\(${first.slice(0, 16)}Z\\)$`));
    expect(scheduled).toMatch(/CET|CEST|GMT\+[12]/);
    expect(again).toContain(first.slice(0, 16));
    expect(await logged('campaign.reschedule', body.id)).toEqual([
      expect.stringMatching(new RegExp(`for .+${later.slice(0, 16)}Z\\), was .+${first.slice(0, 16)}Z\\)$`)),
    ]);
    expect(await logged('campaign.unschedule', body.id)).toEqual([
      expect.stringContaining(later.slice(0, 16)),
    ]);
  });

  test('a day that does not exist is refused on scheduledAt, not rolled over to the next month', async () => {
    const year = new Date().getUTCFullYear() + 1;
    for (const scheduledAt of [`${year}-02-30T09:00:00+01:00`, `${year}-04-31T09:00:00Z`]) {
      const reply = await create({ ...ISSUE, scheduledAt });
      expect(reply.status, scheduledAt).toBe(400);
      expect(reply.body.error.fields.scheduledAt).toMatch(/exist/);
    }
    expect(await api.db.query('SELECT id FROM campaigns')).toHaveLength(0);
  });

  test('a moment passed, too far ahead or not ISO 8601 is refused and changes nothing', async () => {
    const { body } = await create({ ...ISSUE, scheduledAt: inHours(1) });
    const before = (await get(body.id)).body.scheduledAt;
    for (const scheduledAt of [
      inHours(-1),
      inHours(24 * 400),
      '2026-12-01 09:00',
      '2026-12-01T09:00:00',
      'tomorrow',
      42,
    ]) {
      const reply = await patch(body.id, { scheduledAt });
      expect(reply.status, String(scheduledAt)).toBe(400);
      expect(reply.body.error.fields).toHaveProperty('scheduledAt');
    }
    expect((await create({ ...ISSUE, scheduledAt: inHours(-2) })).status).toBe(400);
    expect((await get(body.id)).body.scheduledAt).toBe(before);
    expect(await api.db.query('SELECT id FROM campaigns')).toHaveLength(1);
  });

  test('exactly once under two concurrent runners: two runs at once start the issue once, one copy each', async () => {
    await addReaders(25);
    const { body } = await create({ ...ISSUE, scheduledAt: inHours(1) });
    await makeDue(body.id, '5 seconds');

    const runs = await Promise.all([scheduledRun(), scheduledRun()]);
    expect(runs.flatMap((run) => run.schedule.started)).toEqual([body.id]);
    await scheduledRun();
    await api.settle();

    const to = copiesOf(ISSUE.subject).map((m) => m.envelope.to[0]);
    expect(to).toHaveLength(25);
    expect(new Set(to).size).toBe(25);
    const sent = (await get(body.id)).body;
    expect(sent).toMatchObject({ status: 'sent', recipients: 25, counts: { sent: 25 } });
    expect(sent.startDelaySeconds).toBeLessThan(120);
    const [start, ...more] = await logged('campaign.scheduled_start', body.id);
    expect(more).toEqual([]);
    expect(start).toMatch(
      new RegExp(`^campaign ${body.id}, 25 recipients, planned for .+, started on time$`),
    );
  });

  test('an issue whose time passed during an outage starts at the next run, with the delay noted', async () => {
    await addReaders(3, 'de');
    const { body } = await create({ ...ISSUE, lang: 'de', scheduledAt: inHours(1) });
    await makeDue(body.id, '3 hours 12 minutes');

    expect((await scheduledRun()).schedule.started).toEqual([body.id]);
    const started = (await get(body.id)).body;
    expect(started.status).not.toBe('draft');
    expect(started.startDelaySeconds).toBeGreaterThanOrEqual(3 * 3600 + 12 * 60);
    expect(started.startDelaySeconds).toBeLessThan(3 * 3600 + 14 * 60);
    expect(await logged('campaign.scheduled_start', body.id)).toEqual([
      expect.stringMatching(/, 3 recipients, planned for .+, started 3 h 1[23] min late \(/),
    ]);
  });

  test('a due issue nobody can receive is taken off the schedule once, with the reason logged', async () => {
    const { body } = await create({ ...ISSUE, lang: 'de', scheduledAt: inHours(1) });
    await makeDue(body.id, '1 minute');
    expect((await scheduledRun()).schedule).toEqual({ started: [], unscheduled: [body.id] });
    expect((await scheduledRun()).schedule).toEqual({ started: [], unscheduled: [] });
    expect((await get(body.id)).body).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(await logged('campaign.schedule_failed', body.id)).toEqual([
      expect.stringContaining('no confirmed German subscribers; taken off the schedule'),
    ]);
  });

  test('Send by hand clears the schedule, so the run finds nothing due; a sent issue cannot be rescheduled', async () => {
    await addReaders(2);
    const { body } = await create({ ...ISSUE, scheduledAt: inHours(1) });
    expect((await api.call('POST', `/api/campaigns/${body.id}/send`, { token })).status).toBe(202);
    await api.settle();
    expect((await get(body.id)).body).toMatchObject({ scheduledAt: null, startDelaySeconds: null });
    expect((await scheduledRun()).schedule.started).toEqual([]);
    expect((await patch(body.id, { scheduledAt: inHours(3) })).status).toBe(409);
  });
});

describe('reuse', () => {
  test('Duplicate makes an unscheduled draft from a sent issue; a missing one is a 404', async () => {
    await addReaders(1);
    const { body } = await create({ ...ISSUE, articles: ['blog/gmp'], lang: 'en' });
    await api.call('POST', `/api/campaigns/${body.id}/send`, { token });
    const copy = await api.call('POST', `/api/campaigns/${body.id}/duplicate`, { token });
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(body.id);
    expect((await get(copy.body.id)).body).toMatchObject({
      ...ISSUE,
      articles: ['blog/gmp'],
      status: 'draft',
      scheduledAt: null,
      duplicatedFrom: body.id,
      recipients: null,
    });
    expect(await logged('campaign.duplicate', copy.body.id)).toEqual([
      `campaign ${copy.body.id} from campaign ${body.id}`,
    ]);
    expect((await api.call('POST', '/api/campaigns/999999/duplicate', { token })).status).toBe(404);
  });

  test('the archive lists sent, listed issues of its language newest first, without personal links', async () => {
    await addReaders(2);
    await addReaders(1, 'de');
    const sendIssue = async (json: Record<string, unknown>) => {
      const { body } = await create(json);
      expect((await api.call('POST', `/api/campaigns/${body.id}/send`, { token })).status).toBe(202);
      return body.id as number;
    };
    const older = await sendIssue({ ...ISSUE, subject: 'Older issue' });
    const newer = await sendIssue({ ...ISSUE, subject: 'Newer <issue> & more' });
    const german = await sendIssue({ ...ISSUE, subject: 'Deutsche Ausgabe', lang: 'de' });
    const withdrawn = await sendIssue({ ...ISSUE, subject: 'Withdrawn issue' });
    await create({ ...ISSUE, subject: 'Still a draft' });
    await api.db.query(
      `UPDATE campaigns SET send_started_at = send_started_at - interval '1 day' WHERE id = $1`,
      [older],
    );
    for (let run = 0; run < 3; run += 1) await scheduledRun();
    await api.settle();

    const off = await api.call('PUT', `/api/campaigns/${withdrawn}/archive`, {
      token,
      json: { inArchive: false },
    });
    expect(off.status).toBe(200);
    expect(off.body.inArchive).toBe(false);
    expect(await logged('campaign.archive', withdrawn)).toEqual([
      `campaign ${withdrawn} taken out of the public archive`,
    ]);
    for (const json of [{}, { inArchive: 'no' }, { inArchive: true, extra: 1 }]) {
      expect((await api.call('PUT', `/api/campaigns/${withdrawn}/archive`, { token, json })).status).toBe(
        400,
      );
    }

    const english = await archivedIssues(api.db, 'en');
    expect(english.map((issue) => issue.id)).toEqual([newer, older]);
    expect((await archivedIssues(api.db, 'de')).map((issue) => issue.id)).toEqual([german]);

    const shell =
      '<main><section id="newsletter-archive" aria-label="Issues sent"><p>Nothing yet</p></section></main>';
    const page = archivePage(shell, english, 'en');
    expect(page).not.toContain('Nothing yet');
    expect(page).toContain('Newer &lt;issue&gt; &amp; more');
    expect(page.indexOf('Newer')).toBeLessThan(page.indexOf('Older issue'));
    expect(page).not.toMatch(/unsubscribe|token=|click\//);
    const link = /href="(\/newsletter\/issue\/\d+\?sig=[\w-]+)"/.exec(page)![1]!;
    const web = await api.call('GET', link.replaceAll('&amp;', '&'));
    expect(web.status).toBe(200);
    expect(web.headers.get('x-robots-tag')).toBeNull();
    expect(web.headers.get('link')).toMatch(/rel="canonical"/);
    expect(web.text).not.toMatch(/unsubscribe\?token|\/newsletter\/click\//);
    expect(archivePage(shell, [], 'en')).toBe(shell);

    // The withdrawn issue's link from the mail still opens, but is not for search engines.
    const { campaignViewUrl } = await import('../../src/server/mail/links.ts');
    const hidden = await api.call('GET', campaignViewUrl('', withdrawn));
    expect(hidden.status).toBe(200);
    expect(hidden.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });
});
