import { lockDataDir } from './embedded.ts';
import { createDb, type Db } from './index.ts';
import { createPgliteDb } from './pglite.ts';

/**
 * For scripts and tests: `DATABASE_URL` when given, otherwise embedded PGlite — in `dataDir` (locked while
 * open, so it fails fast if `npm run dev` holds it) or in memory.
 * Functions never call this; they must not open PGlite (see DESIGN.md §3).
 */
export async function openDb(url = process.env.DATABASE_URL, dataDir?: string): Promise<Db> {
  if (url) return createDb(url);
  if (!dataDir) return (await createPgliteDb()).db;
  const unlock = lockDataDir(dataDir);
  try {
    const { db } = await createPgliteDb(dataDir);
    return { ...db, close: async () => (await db.close(), unlock()) };
  } catch (error) {
    unlock();
    throw error;
  }
}
