/**
 * API tests that never touch the database carry the tag `no-db` (declared in vitest.api.config.ts): a 405, a
 * 415 or a body over its cap is refused before any statement runs, so the answer cannot differ between
 * PGlite, PostgreSQL and the Neon driver. They run once, on PGlite; the PostgreSQL and Neon runs leave them out
 * (`--tags-filter=!no-db` in scripts/test-all.ts). The tag is checked, not trusted: {@link checkNoDb} counts the statements the database runs
 * during each tagged test and fails the test if there was one.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { Db } from '../../../src/server/db/index.ts';
import type { Api } from './harness.ts';

/** Test options for a test that never touches the database. */
export const noDb = { tags: ['no-db'] };

const counters = new WeakMap<Db, { statements: number }>();

/** Wraps the database's entry points once so the statements it runs can be counted. */
function counted(db: Db) {
  let counter = counters.get(db);
  if (counter) return counter;
  const tally = { statements: 0 };
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = ((sql, params) => ((tally.statements += 1), query(sql, params))) as Db['query'];
  db.transaction = ((fn) => ((tally.statements += 1), transaction(fn))) as Db['transaction'];
  counters.set(db, tally);
  counter = tally;
  return counter;
}

/** Fails every `no-db` test in the file that runs a statement; `api` is the file's harness. */
export function checkNoDb(api: () => Api) {
  let before = 0;
  beforeEach(async ({ task }) => {
    if (!task.tags?.includes('no-db')) return;
    await api().settle();
    before = counted(api().db).statements;
  });
  afterEach(async ({ task }) => {
    if (!task.tags?.includes('no-db')) return;
    await api().settle();
    expect(counted(api().db).statements - before, 'statements run by a test tagged no-db').toBe(0);
  });
}
