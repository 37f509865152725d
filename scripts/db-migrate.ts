/** `npm run db:migrate`: applies db/migrations to DATABASE_URL, or to the embedded dev database when unset. */
import { fileURLToPath } from 'node:url';
import { openDb } from '../src/server/db/open.ts';
import { migrate } from '../src/server/migrate.ts';

const url = process.env.DATABASE_URL;
const dataDir = fileURLToPath(new URL('../.data/dev', import.meta.url));
const db = await openDb(url, url ? undefined : dataDir).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
try {
  const applied = await migrate(db);
  const target = url ? new URL(url).host : dataDir;
  console.log(applied.length ? `Applied to ${target}: ${applied.join(', ')}` : `${target} is up to date.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.close();
}
