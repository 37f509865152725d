import { createNeonDb } from './neon.ts';
import { createPgDb } from './pg.ts';
import type { Db } from './types.ts';

export type { Db, DbKind, Queryable, Row, Tx } from './types.ts';
export { DbUnavailableError } from './types.ts';

/** DESIGN.md §3: a host on `*.neon.tech` uses the Neon driver, any other Postgres URL uses `pg`. */
export function adapterFor(url: string): 'neon' | 'pg' {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error(`DATABASE_URL must be a postgres:// URL, not ${protocol}`);
  }
  return hostname === 'neon.tech' || hostname.endsWith('.neon.tech') ? 'neon' : 'pg';
}

/** Opens a server database from its URL. The embedded database is opened by src/server/db/open.ts. */
export function createDb(url: string): Db {
  return adapterFor(url) === 'neon' ? createNeonDb(url) : createPgDb(url);
}
