import { neon, neonConfig, Pool, type NeonQueryFunction } from '@neondatabase/serverless';
import type pg from 'pg';
import { transactionOn } from './pg.ts';
import { guarded, type Db } from './types.ts';

/**
 * Test support only: `NEON_LOCAL_PROXY=host:port` points the driver's HTTP and WebSocket traffic at a local
 * server that speaks Neon's protocol in front of a real PostgreSQL (tests/api/support/neon-proxy.ts).
 */
function pointAtLocalProxy(proxy: string): void {
  neonConfig.fetchEndpoint = `http://${proxy}/sql`;
  neonConfig.wsProxy = `${proxy}/v2`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineConnect = false;
  neonConfig.forceDisablePgSSL = true;
}

/**
 * Neon serverless: single statements over HTTP (one round trip, no connection to keep warm), transactions
 * over a WebSocket pool opened on first use.
 */
export function createNeonDb(connectionString: string): Db {
  const proxy = process.env.NEON_LOCAL_PROXY;
  if (proxy) pointAtLocalProxy(proxy);
  const sql: NeonQueryFunction<false, false> = neon(connectionString);
  let pool: Pool | undefined;
  return {
    kind: 'neon',
    query: async <T>(text: string, params: readonly unknown[] = []) =>
      guarded(async () => (await sql.query(text, [...params])) as T[]),
    transaction: (fn) => {
      if (!pool) {
        pool = new Pool({ connectionString, max: 2 });
        pool.on('error', (error: Error) => console.error(`[db] neon pool: ${error.message}`));
      }
      // Neon's Pool is pg's Pool over a WebSocket; the client API is the same.
      return transactionOn(pool as unknown as pg.Pool, fn);
    },
    close: async () => {
      await pool?.end();
    },
  };
}
