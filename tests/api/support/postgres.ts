/**
 * A throwaway PostgreSQL cluster on a loopback port, for the API tests' "real server" runs.
 * initdb refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../../scripts/lib/ports.ts';

/** The newest installed server's bin directory (Debian layout), or PG_BIN. */
export function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

export { freePort };

export interface PostgresServer {
  /** URL of the `postgres` database as superuser `korvel` (trust auth on loopback). */
  url: string;
  port: number;
  /** What the server has written to stderr so far (why it stopped, when it did). */
  log(): string;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'korvel-pg-'));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]) as [
      string,
      string[],
    ];
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const init = spawnSync(
    ...run(join(bin, 'initdb'), ['-D', data, '-U', 'korvel', '-A', 'trust', '-E', 'UTF8', '--no-sync']),
    {
      encoding: 'utf8',
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const server: ChildProcess = spawn(
    ...run(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=200',
    ]),
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr?.on('data', (chunk) => (log += String(chunk)));
  const url = `postgres://korvel@127.0.0.1:${port}/postgres`;
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (attempt > 100 || server.exitCode !== null) throw new Error(`PostgreSQL did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    port,
    log: () => log,
    stop: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        // Signal the postmaster itself: runuser does not forward signals to its child.
        const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(postmaster, 'SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  return { uid: Number(out.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
