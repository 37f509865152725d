/**
 * Starts what the chosen database target needs, once per run. API_DB picks the target:
 * `pglite` (default, in-process), `postgres` (a throwaway server) or `neon` (the Neon driver, through
 * neon-proxy.ts, to a throwaway server).
 */
import type { TestProject } from 'vitest/node';
import { startNeonProxy } from './neon-proxy.ts';
import { startPostgres } from './postgres.ts';

export type ApiDbTarget =
  | { kind: 'pglite' }
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
    project.provide('apiDb', { kind });
    return;
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
