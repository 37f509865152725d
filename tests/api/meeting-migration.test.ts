/**
 * Migration 0009 on the rows of the schema before it: meetings already sent out keep the slot-based UID their
 * invitations carry (so a later update still reaches the same calendar entry), a declined one gets its own,
 * and the history starts with what the rows already tell.
 */
import { afterAll, expect, test } from 'vitest';
import type { Db } from '../../src/server/db/index.ts';
import { loadMigrations, migrate } from '../../src/server/migrate.ts';
import { openTestDb } from './support/harness.ts';

let db: Db | undefined;
afterAll(async () => {
  await db?.close();
});

test('meetings from before keep their slot UID, a declined one gets its own, and their history is filled in', async () => {
  const all = await loadMigrations();
  db = await openTestDb(all.filter((m) => m.version < 9));
  const insert = async (start: string, status: string, sequence: number) => {
    const [row] = await db!.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, email, subject, meeting_start, meeting_status, meeting_sequence,
         privacy_version, meeting_decided_at)
       VALUES ('meeting', 'Ana', 'ana@plant.example', 'x', $1, $2, $3, 'p',
         CASE WHEN $2 <> 'requested' THEN now() END) RETURNING id`,
      [start, status, sequence],
    );
    return row!.id;
  };
  const declined = await insert('2026-11-27T08:00:00Z', 'declined', 1);
  const rebooked = await insert('2026-11-27T08:00:00Z', 'requested', 0);
  const confirmed = await insert('2026-11-30T13:30:00Z', 'confirmed', 1);
  const [contact] = await db.query<{ id: number }>(
    `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
     VALUES ('contact', 'Bo', 'bo@plant.example', 's', 'm', 'p') RETURNING id`,
  );

  expect(await migrate(db, all)).toContain('0009_meeting_identity.sql');

  const uid = async (id: number) =>
    (await db!.query<{ meeting_uid: string }>('SELECT meeting_uid FROM inquiries WHERE id = $1', [id]))[0]!
      .meeting_uid;
  expect(await uid(rebooked)).toBe('meeting-20261127T080000000Z');
  expect(await uid(confirmed)).toBe('meeting-20261130T133000000Z');
  expect(await uid(declined)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(await uid(contact!.id)).not.toBe(await uid(declined));

  const history = await db.query<{ inquiry_id: number; change: string; sequence: number }>(
    'SELECT inquiry_id, change, sequence FROM meeting_history ORDER BY inquiry_id, id',
  );
  expect(history).toEqual([
    { inquiry_id: declined, change: 'requested', sequence: 0 },
    { inquiry_id: declined, change: 'declined', sequence: 1 },
    { inquiry_id: rebooked, change: 'requested', sequence: 0 },
    { inquiry_id: confirmed, change: 'requested', sequence: 0 },
    { inquiry_id: confirmed, change: 'confirmed', sequence: 1 },
  ]);
});
