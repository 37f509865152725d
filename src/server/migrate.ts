import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './db/index.ts';

/** Where the numbered SQL files live, relative to the repository root. */
export const MIGRATIONS_DIR = new URL('../../db/migrations/', import.meta.url);

/** Any number; it only has to be the same for every process that migrates this database. */
const LOCK_KEY = 724_310_2010;

const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** Refused: an applied file was edited, or two files claim one version. Fix the files, never the table. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** Reads `NNNN_name.sql` files in version order. Other files in the folder are an error, not silently skipped. */
export async function loadMigrations(dir: URL | string = MIGRATIONS_DIR): Promise<Migration[]> {
  const path = typeof dir === 'string' ? dir : dir.pathname;
  const files = (await readdir(path)).filter((file) => !file.startsWith('.')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_NAME.exec(file);
    if (!match) throw new MigrationError(`${file}: migration files are named NNNN_snake_case.sql`);
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) {
      throw new MigrationError(`${file}: version ${version} is used twice`);
    }
    const sql = await readFile(join(path, file), 'utf8');
    migrations.push({ version, name: file, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

interface AppliedRow extends Record<string, unknown> {
  version: number;
  name: string;
  checksum: string;
}

/**
 * Applies pending migrations in order. Each file and its `schema_migrations` record commit together under a
 * transaction-scoped advisory lock, so concurrent runners queue and a failed file leaves nothing behind.
 * @returns the names of the files applied by this call.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const files = migrations ?? (await loadMigrations());
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });

  const applied: string[] = [];
  for (const migration of files) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const [row] = await tx.query<AppliedRow>(
        'SELECT version, name, checksum FROM schema_migrations WHERE version = $1',
        [migration.version],
      );
      if (row) {
        if (row.checksum !== migration.checksum) {
          throw new MigrationError(
            `${migration.name} was edited after it was applied (as ${row.name}). Add a new migration instead.`,
          );
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}
