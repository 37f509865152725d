import pg from 'pg';
import { guarded, type Db, type Tx } from './types.ts';

/** Runs `fn` on one pooled client between BEGIN and COMMIT. Shared by the pg and Neon (WebSocket) adapters. */
export async function transactionOn<R>(pool: pg.Pool, fn: (tx: Tx) => Promise<R>): Promise<R> {
  const client = await guarded(() => pool.connect());
  try {
    await guarded(() => client.query('BEGIN'));
    const tx: Tx = {
      query: async (sql, params = []) => guarded(async () => (await client.query(sql, [...params])).rows),
      exec: async (sql) => {
        await guarded(() => client.query(sql));
      },
    };
    const result = await fn(tx);
    await guarded(() => client.query('COMMIT'));
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Any PostgreSQL server over TCP (CI, self-hosting, and dev through the PGlite socket).
 * @example const db = createPgDb('postgres://korvel@127.0.0.1:5432/korvel');
 */
export function createPgDb(connectionString: string, options: { max?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 5,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection emits here; without a listener it would crash the process.
  pool.on('error', (error) => console.error(`[db] idle connection lost: ${error.message}`));
  return {
    kind: 'pg',
    query: async (sql, params = []) => guarded(async () => (await pool.query(sql, [...params])).rows),
    transaction: (fn) => transactionOn(pool, fn),
    close: () => pool.end(),
  };
}
