/**
 * What `npm run dev` and `npm run preview` need before they serve: a database (embedded unless DATABASE_URL
 * is set) and a JWT secret (kept in .data/ so admin sessions survive restarts). Sets both in process.env.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startEmbeddedDatabase } from '../../src/server/db/embedded.ts';

const dataRoot = fileURLToPath(new URL('../../.data/', import.meta.url));

function localJwtSecret(): string {
  const file = `${dataRoot}jwt-secret`;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataRoot, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface LocalServices {
  /** Lines to print once the server is up. */
  banner: string[];
  stop(): Promise<void>;
}

/** @param name the .data/ subdirectory of the embedded database (`dev`, `preview`), unless KORVEL_DATA_DIR is set. */
export async function startLocalServices(name: string): Promise<LocalServices> {
  process.env.JWT_SECRET ??= localJwtSecret();
  if (process.env.DATABASE_URL) {
    return {
      banner: ['Database: DATABASE_URL (migrate it with npm run db:migrate)'],
      stop: async () => undefined,
    };
  }
  const dataDir = process.env.KORVEL_DATA_DIR ?? `${dataRoot}${name}`;
  const embedded = await startEmbeddedDatabase({ dataDir, port: Number(process.env.PGLITE_PORT ?? 0) });
  process.env.DATABASE_URL = embedded.url;
  const admin = embedded.admin
    ? `Dev admin: ${embedded.admin.email} / ${embedded.admin.password}`
    : `Dev admin: see ${dataDir}.admin.json, or create one with npm run admin:create`;
  return {
    banner: [`Database: embedded PGlite in ${dataDir} at ${embedded.url}`, admin],
    stop: embedded.stop,
  };
}
