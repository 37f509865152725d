import { createPgliteDb } from '/work/main/src/server/db/pglite.ts';
import { migrate } from '/work/main/src/server/migrate.ts';
const { pglite } = await createPgliteDb();
const snap = await pglite.dumpDataDir('none');
await pglite.close();
for (let i = 0; i < 3; i++) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const { db } = await createPgliteDb(undefined, snap);
  const t1 = performance.now();
  await migrate(db);
  const t2 = performance.now(); const c = process.cpuUsage(c0);
  console.log('load', (t1 - t0).toFixed(0), 'migrate', (t2 - t1).toFixed(0), 'cpu', ((c.user + c.system) / 1000).toFixed(0));
}
