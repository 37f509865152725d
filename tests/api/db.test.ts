import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../src/server/db/index.ts';
import { loadMigrations, migrate, MigrationError, MIGRATIONS_DIR } from '../../src/server/migrate.ts';
import { openTestDb } from './support/harness.ts';

let db: Db;

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(() => db?.close());

/** A copy of db/migrations that a test may edit. */
function migrationsCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'korvel-migrations-'));
  for (const file of readdirSync(MIGRATIONS_DIR))
    writeFileSync(join(dir, file), readFileSync(new URL(file, MIGRATIONS_DIR)));
  return dir;
}

describe('adapter', () => {
  test('returns integer ids and counts as numbers', async () => {
    const [row] = await db.query<{ id: number; n: number }>(
      `WITH added AS (INSERT INTO subscribers (email) VALUES ('types@plant.example') RETURNING id)
       SELECT id, (SELECT count(*)::int FROM subscribers) AS n FROM added`,
    );
    expect(typeof row!.id).toBe('number');
    expect(typeof row!.n).toBe('number');
  });

  test('returns timestamps as dates and NULL as null', async () => {
    const [row] = await db.query<{ at: Date; missing: null }>(
      `SELECT '2026-11-21T10:00:00Z'::timestamptz AS at, NULL AS missing`,
    );
    expect(new Date(row!.at).toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(row!.missing).toBeNull();
  });

  test('passes parameters as values, never as SQL', async () => {
    const hostile = "x'); DROP TABLE subscribers; --";
    const [row] = await db.query<{ echoed: string }>('SELECT $1::text AS echoed', [hostile]);
    expect(row!.echoed).toBe(hostile);
    expect(await db.query('SELECT 1 FROM subscribers LIMIT 1')).toHaveLength(1);
  });

  test('commits a transaction as a whole and rolls back on a throw', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO subscribers (email) VALUES ('kept@plant.example')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO subscribers (email) VALUES ('rolled-back@plant.example')`);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    const emails = (await db.query<{ email: string }>('SELECT email FROM subscribers')).map((r) => r.email);
    expect(emails).toContain('kept@plant.example');
    expect(emails).not.toContain('rolled-back@plant.example');
  });

  test('enforces one row per address whatever its letter case', async () => {
    await expect(
      db.query(`INSERT INTO subscribers (email) VALUES ('TYPES@Plant.example')`),
    ).rejects.toThrow();
  });
});

describe('migrations', () => {
  test('records every file with its checksum, and a second run applies nothing', async () => {
    const files = await loadMigrations();
    const rows = await db.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    );
    expect(rows).toEqual(files.map(({ version, name, checksum }) => ({ version, name, checksum })));
    expect(await migrate(db)).toEqual([]);
  });

  test('concurrent runners queue on the advisory lock and apply each file once', async () => {
    const dir = migrationsCopy();
    writeFileSync(join(dir, '0900_concurrency_probe.sql'), 'CREATE TABLE concurrency_probe (id integer);');
    const migrations = await loadMigrations(dir);
    const results = await Promise.all([
      migrate(db, migrations),
      migrate(db, migrations),
      migrate(db, migrations),
    ]);
    expect(results.flat()).toEqual(['0900_concurrency_probe.sql']);
  });

  test('refuses an applied file that was edited, naming it', async () => {
    const dir = migrationsCopy();
    const file = join(dir, '0001_subscribers.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- an afterthought\n`);
    const run = migrate(db, await loadMigrations(dir));
    await expect(run).rejects.toThrow(MigrationError);
    await expect(migrate(db, await loadMigrations(dir))).rejects.toThrow(/0001_subscribers\.sql was edited/);
  });

  test('rolls back a failing file together with its record', async () => {
    const dir = migrationsCopy();
    writeFileSync(
      join(dir, '0901_broken.sql'),
      'CREATE TABLE half_done (id integer);\nSELECT * FROM no_such_table;',
    );
    await expect(migrate(db, await loadMigrations(dir))).rejects.toThrow();
    expect(await db.query(`SELECT 1 FROM schema_migrations WHERE version = 901`)).toEqual([]);
    expect(await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`)).toEqual(
      [],
    );
  });

  test('refuses a file that does not follow NNNN_name.sql', async () => {
    const dir = migrationsCopy();
    writeFileSync(join(dir, 'add-index.sql'), 'SELECT 1;');
    await expect(loadMigrations(dir)).rejects.toThrow(/add-index\.sql/);
  });
});
