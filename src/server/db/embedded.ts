/**
 * The embedded database of `npm run dev` and `npm run preview`: PGlite persisted in a directory under .data/,
 * served over the Postgres wire protocol on a loopback port so the functions reach it like any server.
 * A lock file keeps a second process out of the same directory (two writers corrupt it silently).
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { migrate } from '../migrate.ts';
import { seedSampleData, upgradeDevAdmin, type DevAdmin } from '../seed.ts';
import { createPgliteDb } from './pglite.ts';

export interface EmbeddedDatabase {
  /** postgres:// URL of the socket server, for DATABASE_URL. */
  url: string;
  /** The dev admin, when this data directory was seeded by this code. */
  admin?: DevAdmin;
  /** `<dataDir>.url`: holds `url` while the server runs, so tests can seed rows the functions then serve. */
  urlFile: string;
  stop(): Promise<void>;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes `content` to a new file; false if the file already exists. */
function createExclusive(path: string, content: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeFileSync(fd, content);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes `<dataDir>.lock` for this process, replacing a lock whose process has gone. Returns the release. */
export function lockDataDir(dataDir: string): () => void {
  const path = `${dataDir}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createExclusive(path, String(process.pid))) return () => rmSync(path, { force: true });
    const owner = Number(readFileSync(path, 'utf8'));
    if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
      throw new Error(`${dataDir} is in use by process ${owner}. Stop it first, or set DATABASE_URL.`);
    }
    rmSync(path, { force: true });
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/**
 * Opens (or creates) the database in `dataDir`, migrates it, seeds it on first start and serves it.
 * @example const { url, stop } = await startEmbeddedDatabase({ dataDir: '.data/dev' });
 */
export async function startEmbeddedDatabase(options: {
  dataDir: string;
  port?: number;
}): Promise<EmbeddedDatabase> {
  const unlock = lockDataDir(options.dataDir);
  const credentialsFile = `${options.dataDir}.admin.json`;
  try {
    const { db, pglite } = await createPgliteDb(options.dataDir);
    await migrate(db);
    const [{ admins }] = (await db.query<{ admins: number }>(
      'SELECT count(*)::int AS admins FROM admins',
    )) as [{ admins: number }];
    let admin: EmbeddedDatabase['admin'];
    if (admins === 0) {
      admin = await seedSampleData(db);
      writeFileSync(credentialsFile, JSON.stringify(admin, null, 2), { mode: 0o600 });
    } else {
      try {
        admin = JSON.parse(readFileSync(credentialsFile, 'utf8')) as EmbeddedDatabase['admin'];
      } catch {
        admin = undefined;
      }
      // A directory seeded before the team had second factors: its dev owner gets one now.
      const upgraded = admin && !admin.otpauth ? await upgradeDevAdmin(db, admin) : undefined;
      if (upgraded) {
        admin = upgraded;
        writeFileSync(credentialsFile, JSON.stringify(admin, null, 2), { mode: 0o600 });
      }
    }
    const server = new PGLiteSocketServer({
      db: pglite,
      host: '127.0.0.1',
      port: options.port ?? 0,
      maxConnections: 32,
    });
    await server.start();
    const url = `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
    const urlFile = `${options.dataDir}.url`;
    writeFileSync(urlFile, url, { mode: 0o600 });
    return {
      url,
      admin,
      urlFile,
      stop: async () => {
        rmSync(urlFile, { force: true });
        await server.stop();
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
