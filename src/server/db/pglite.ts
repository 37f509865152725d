import { PGlite } from '@electric-sql/pglite';
import { guarded, type Db, type Tx } from './types.ts';

/**
 * Embedded Postgres in this process: tests and scripts. `dataDir` persists it; omitted, it lives in memory.
 * Only one process may open a data directory (see src/server/embedded.ts for the lock). `snapshot`, a data
 * directory that `PGlite.dumpDataDir` wrote, starts it from a copy of that cluster instead of running initdb
 * (about 2.5 CPU seconds): the API tests initialise one cluster per run and give each test file its own copy.
 */
export async function createPgliteDb(dataDir?: string, snapshot?: Blob): Promise<{ db: Db; pglite: PGlite }> {
  const pglite = await PGlite.create({ dataDir, loadDataDir: snapshot });
  const db: Db = {
    kind: 'pglite',
    query: async (sql, params = []) =>
      guarded(async () => (await pglite.query(sql, [...params])).rows as never[]),
    transaction: (fn) =>
      pglite.transaction(async (inner) => {
        const tx: Tx = {
          query: async (sql, params = []) => (await inner.query(sql, [...params])).rows as never[],
          exec: async (sql) => {
            await inner.exec(sql);
          },
        };
        return fn(tx);
      }),
    close: () => pglite.close(),
  };
  return { db, pglite };
}
