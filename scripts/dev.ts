/**
 * `npm run dev`: the embedded database (unless DATABASE_URL is set), then `astro dev`, whose korvel
 * integration routes /api/* and /admin/login to the functions. One port; Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startLocalServices } from './lib/local-services.ts';

// Astro's own port (4321 unless --port says otherwise): links in mail and the mail worker's calls go there.
const args = process.argv.slice(2);
const portArg = args.findIndex((arg) => arg === '--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : 4321;
const services = await startLocalServices('dev', `http://127.0.0.1:${port}`);
const astro = fileURLToPath(new URL('../node_modules/astro/bin/astro.mjs', import.meta.url));
const child = spawn(process.execPath, [astro, 'dev', ...args], {
  stdio: 'inherit',
  // The embedded database takes one function call at a time (scripts/lib/function-host.ts says why).
  env: { ...process.env, KORVEL_ONE_CALL_AT_A_TIME: services.embedded ? '1' : '' },
});

// Astro prints its own URL; ours goes after its banner so it is not scrolled away.
setTimeout(() => {
  console.log(['', ...services.banner, ''].join('\n'));
  services.startMailWorker();
}, 2500).unref();

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(forced);
  }
  await services.stop();
  process.exit(code);
}
child.on('exit', (code) => void stop(code ?? 0));
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
