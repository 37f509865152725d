/**
 * Starts what the chosen database target needs, once per run. API_DB picks the target:
 * `pglite` (default, in-process), `postgres` (a throwaway server) or `neon` (the Neon driver, through
 * neon-proxy.ts, to a throwaway server).
 *
 * For PGlite, initdb runs once here (about 2.5 CPU seconds) and the empty cluster is dumped to a file; each
 * test file's database starts from its own copy of that dump (harness.ts), as empty and unmigrated as a
 * fresh one, and migrates it itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPgliteDb } from '../../../src/server/db/pglite.ts';
import { startNeonProxy } from './neon-proxy.ts';
import { startPostgres } from './postgres.ts';

export type ApiDbTarget =
  | { kind: 'pglite'; snapshot: string }
  | { kind: 'postgres'; serverUrl: string }
  | { kind: 'neon'; serverUrl: string; proxy: string };

declare module 'vitest' {
  export interface ProvidedContext {
    apiDb: ApiDbTarget;
  }
}

export default async function setup(project: TestProject) {
  const kind = process.env.API_DB ?? 'pglite';
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'korvel-pglite-'));
    const snapshot = join(dir, 'initdb.tar');
    const { pglite } = await createPgliteDb();
    writeFileSync(snapshot, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    await pglite.close();
    project.provide('apiDb', { kind, snapshot });
    return () => rmSync(dir, { recursive: true, force: true });
  }
  if (kind !== 'postgres' && kind !== 'neon')
    throw new Error(`API_DB must be pglite, postgres or neon, not ${kind}`);
  const server = await startPostgres();
  const proxy = kind === 'neon' ? await startNeonProxy({ host: '127.0.0.1', port: server.port }) : undefined;
  project.provide(
    'apiDb',
    proxy
      ? { kind, serverUrl: server.url, proxy: proxy.address }
      : { kind: 'postgres', serverUrl: server.url },
  );
  return async () => {
    await proxy?.stop();
    await server.stop();
  };
}
