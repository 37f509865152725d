/**
 * `npm run build`: `astro build`, then the Pagefind index (scripts/search-index.ts), each in its own Node
 * process with the build environment of scripts/lib/build-env.ts. Arguments go to `astro build`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BUILD_ENV, buildSteps } from './lib/build-env.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const [astro, index] = buildSteps(root);
for (const args of [[...astro!, ...process.argv.slice(2)], index!]) {
  const { status } = spawnSync(process.execPath, args, {
    cwd: process.cwd(),
    stdio: 'inherit',
    env: { ...process.env, ...BUILD_ENV },
  });
  if (status !== 0) process.exit(status ?? 1);
}
