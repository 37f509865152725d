/**
 * `npm run test:fresh`: what a newcomer meets. Clones the current commit into a temporary folder and runs the
 * README's two commands there — `npm install && npm run dev` (until the site and the dev owner's banner are up,
 * then stopped) and `npm test` — printing the time of each and the test count.
 *
 *   npm run test:fresh                  one run
 *   npm run test:fresh -- --runs 2      two runs in a row, each in a clone of its own
 *   npm run test:fresh -- --hog         a CPU hog keeps one core busy during each run (started and stopped here)
 *   npm run test:fresh -- --keep        leave the clones for a look (their paths are printed)
 *
 * Only committed work is cloned: a dirty work tree is named, not included.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './lib/ports.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    hog: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number from 1');

const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout.trim();
const commit = git('rev-parse', 'HEAD');
const root = git('rev-parse', '--show-toplevel');
if (git('status', '--porcelain', '--untracked-files=no'))
  console.log('▶ The work tree has uncommitted changes; the clone has only the commit.');

/** Runs `command` in `cwd` with its output passed through; resolves with its exit code and wall seconds. */
function timed(command: string[], cwd: string): Promise<{ code: number; seconds: number; output: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command[0]!, command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => {
        process.stdout.write(chunk);
        output = (output + chunk.toString()).slice(-20_000);
      });
    child.on('close', (code) =>
      resolve({ code: code ?? 1, seconds: (performance.now() - started) / 1000, output }),
    );
  });
}

/** Stops a process and everything it started (it was spawned as a group leader). */
function stopGroup(child: ChildProcess): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The whole group has exited already.
    }
  };
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve();
    child.once('exit', () => resolve());
    signal('SIGTERM');
    setTimeout(() => signal('SIGKILL'), 10_000).unref();
  });
}

/** How long `npm run dev` may take to serve its first page on a cold start (Vite compiles the page on request). */
const DEV_LIMIT_MS = 10 * 60_000;

/**
 * `npm run dev` until its banner names the dev owner and the home page and `/api/health` answer 200; then
 * stopped. Resolves with the seconds that took, or why it did not come up.
 */
async function devComesUp(cwd: string): Promise<{ seconds: number; problem?: string }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['run', 'dev', '--', '--port', String(port)], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A whole page: Astro streams, so a render that fails halfway has already answered 200. A request that
  // hangs is cut at the limit, which is otherwise only looked at between requests.
  const answers = async (path: string, whole: RegExp) => {
    // Whole milliseconds: Node 24's AbortSignal.timeout refuses a fraction.
    const signal = AbortSignal.timeout(Math.max(1, Math.round(started + DEV_LIMIT_MS - performance.now())));
    const reply = await fetch(`http://127.0.0.1:${port}${path}`, { signal }).catch(() => undefined);
    return reply?.status === 200 && whole.test(await reply.text().catch(() => ''));
  };
  // The server stops whatever happens here, so that no run leaves it behind writing into its clone.
  try {
    for (;;) {
      if (performance.now() - started > DEV_LIMIT_MS)
        return {
          seconds: DEV_LIMIT_MS / 1000,
          problem: `did not come up within ${DEV_LIMIT_MS / 60_000} minutes:\n${output.slice(-2000)}`,
        };
      if (child.exitCode !== null || child.signalCode !== null)
        return {
          seconds: (performance.now() - started) / 1000,
          problem: `exited with ${child.exitCode ?? child.signalCode}:\n${output.slice(-2000)}`,
        };
      if (
        /Dev owner: \S+@\S+ \/ \S+/.test(output) &&
        (await answers('/', /<\/h1>[^]*<\/html>/)) &&
        (await answers('/api/health', /"ok":\s*true/))
      )
        return { seconds: (performance.now() - started) / 1000 };
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    await stopGroup(child);
  }
}

interface RunResult {
  install: number;
  dev: number;
  test: number;
  line: string;
  ok: boolean;
}

async function oneRun(index: number): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'korvel-fresh-'));
  console.log(
    `\n▶ Run ${index}: ${commit.slice(0, 12)} cloned into ${dir}${values.hog ? ', a CPU hog running' : ''}`,
  );
  spawnSync('git', ['clone', '--quiet', '--no-checkout', root, dir], { stdio: 'inherit' });
  spawnSync('git', ['checkout', '--quiet', commit], { cwd: dir, stdio: 'inherit' });
  // One core kept busy by another program for the whole run, as on a shared machine.
  const hog = values.hog
    ? spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore', detached: true })
    : undefined;
  try {
    const install = await timed(['npm', 'install', '--no-audit', '--no-fund'], dir);
    if (install.code !== 0)
      return { install: install.seconds, dev: 0, test: 0, line: 'npm install failed', ok: false };
    const dev = await devComesUp(dir);
    if (dev.problem) console.log(`▶ npm run dev ${dev.problem}`);
    const test = await timed(['npm', 'test'], dir);
    const line = /tests: \d+ passed, \d+ failed/.exec(test.output)?.[0] ?? 'no summary line';
    return {
      install: install.seconds,
      dev: dev.seconds,
      test: test.seconds,
      line,
      ok: !dev.problem && test.code === 0,
    };
  } catch (error) {
    console.log(`▶ Run ${index} stopped: ${(error as Error).stack ?? error}`);
    throw error;
  } finally {
    if (hog) await stopGroup(hog);
    // A server that has only just stopped may still be writing there: retried, and never masking an error above.
    if (!values.keep)
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      } catch (error) {
        console.log(`▶ ${dir} could not be removed: ${(error as Error).message}`);
      }
  }
}

const results: RunResult[] = [];
for (let i = 1; i <= runs; i++) results.push(await oneRun(i));

const s = (seconds: number) => `${seconds.toFixed(0)} s`;
console.log(
  `\nFresh clone of ${commit.slice(0, 12)}${values.hog ? ', one core kept busy by a CPU hog' : ''}:`,
);
console.log('run  npm install  npm run dev (up)  npm test  result');
results.forEach((r, i) =>
  console.log(
    `${String(i + 1).padEnd(3)}  ${s(r.install).padStart(11)}  ${s(r.dev).padStart(16)}  ${s(r.test).padStart(8)}  ${r.line}${r.ok ? '' : ' (FAILED)'}`,
  ),
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
