/**
 * `npm test`: types, lint, the content linter, unit tests, API tests (embedded PGlite; then a real PostgreSQL
 * server, directly and through the Neon driver, whenever one is installed), the deployed function bundles,
 * build, the gates over dist/ (links, HTML validity, JSON-LD, feeds and sitemap, social cards, fonts, image
 * sizes), budgets and end-to-end tests in Chromium.
 *
 * First the Debian packages the tests need are checked (scripts/system-packages.sh, as .ci/run does). Stages
 * then run side by side, one more than there are free cores, fewer when memory is short
 * (scripts/lib/test-capacity.ts; `TEST_PARALLEL` to change): most stages wait more than they compute (README,
 * "Tests": the end-to-end suite uses about half a core, an API run less), so the extra slot fills the idle CPU.
 * A stage starts once the stages it needs have passed and a slot is free; when several could start, the first
 * in the list below goes first, so the longest chain (build, then the end-to-end tests) is never kept waiting
 * by a shorter stage. The three API runs (PGlite, PostgreSQL, Neon; each its own embedded database or
 * throwaway server) take the other slots as they free, so they overlap instead of running one after another.
 * The function bundles are built once (`functions`) for the bundle test and the preview of the end-to-end
 * tests. A stage's output goes to test-results/logs/<stage>.log and is printed whole when the stage ends, so
 * parallel output never mixes.
 *
 * Ends with a table of each stage's start, wall and CPU seconds, then one line, `tests: N passed, M failed`;
 * both go to test-results/summary.txt.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { capacityFor, machineBusySeconds, readMachine } from './lib/test-capacity.ts';
import { StageGroups } from './lib/stage-cpu.ts';
import { gatesReport, logTail, playwrightReport, vitestReport, type Counts } from './lib/test-reports.ts';
import { formatTimings, readCpuSeconds, timedCommand, type Timing } from './lib/stage-timer.ts';
import { hasChromium, hasHeadlessShell } from './chromium.ts';
import { freePort } from './lib/ports.ts';
import { postgresBin } from '../tests/api/support/postgres.ts';

// The Debian packages the tests need, checked (and as root installed) exactly as .ci/run does, before any stage
// starts, so a stage never finds its program missing halfway.
const packages = spawnSync('bash', ['scripts/system-packages.sh', 'install'], { stdio: 'inherit' });
const stillMissing = spawnSync('bash', ['scripts/system-packages.sh', 'missing'], { encoding: 'utf8' })
  .stdout.split('\n')
  .filter(Boolean);
if (packages.status !== 0 && packages.status !== 3) console.log('▶ apt-get could not install every package');

// The port of the end-to-end suite's own preview: 8899 when it is free, any free one otherwise. The suite never
// reuses a server that already answers (playwright.config.ts), so a developer's preview or a second run of
// `npm test` in another clone on that port can neither be tested in this build's place nor fail this run.
const wantedPort = Number(process.env.PREVIEW_PORT) || 8899;
const e2ePort = await freePort(wantedPort);
if (e2ePort !== wantedPort)
  console.log(`▶ port ${wantedPort} is taken: the end-to-end preview listens on ${e2ePort}`);

const machine = await readMachine(hasHeadlessShell());
const capacity = capacityFor(machine);
const stages = Number(process.env.TEST_PARALLEL) || capacity.stages;
const e2eWorkers = Number(process.env.E2E_WORKERS) || capacity.e2eWorkers;
const apiWorkers = Number(process.env.API_WORKERS) || capacity.apiWorkers;
console.log(
  `▶ ${machine.cores} cores (${machine.busyCores.toFixed(1)} busy with other programs), ` +
    `${machine.freeGiB.toFixed(1)} GiB free: ${stages} stages at a time, ${e2eWorkers} end-to-end workers` +
    ` (${machine.headlessShell ? 'Chromium headless shell' : 'full Chromium, slower'}), ` +
    `${apiWorkers} file${apiWorkers === 1 ? '' : 's'} at a time per API run`,
);

interface Step {
  name: string;
  command: string[];
  /** Reads passed/failed counts from the runner's JSON report; steps without one count as one check. */
  report?: (file: string) => Counts;
  reportFile?: string;
  needs?: string[];
  env?: Record<string, string>;
  /**
   * Why the step cannot run on this machine; it is then skipped, named in the summary and counted neither way
   * (on CI, where everything must run, it fails).
   */
  unavailable?: () => string | undefined;
}

const vitest = (config: string | undefined, report: string, ...args: string[]) => [
  'npx',
  'vitest',
  'run',
  ...(config ? ['--config', config] : []),
  ...args,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
];
const noPostgres = () =>
  postgresBin() ? undefined : 'PostgreSQL is not installed (apt-get install postgresql)';
const noChromium = () =>
  hasChromium() ? undefined : 'Chromium is not installed (apt-get install chromium chromium-headless-shell)';

/**
 * In the order they start when several could: the longest chain first (build, then the end-to-end tests, which
 * decide the run's length), then the other stages longest first, so the short ones fill the gaps at the end.
 */
const steps: Step[] = [
  // Astro, its image pipeline (sharp), the social cards and Pagefind: the longest chain starts first.
  { name: 'build', command: ['npm', 'run', 'build'] },
  // The bundles Netlify deploys, built once into .netlify/function-zips for the bundle test and the preview.
  { name: 'functions', command: ['node', 'scripts/build-functions.ts'] },
  {
    name: 'e2e',
    command: ['npx', 'playwright', 'test'],
    report: playwrightReport,
    reportFile: 'test-results/e2e.json',
    needs: ['build', 'functions'],
    env: { E2E_WORKERS: String(e2eWorkers), E2E_WHOLE_RUN: '1', PREVIEW_PORT: String(e2ePort) },
    unavailable: noChromium,
  },
  // Every API test on the embedded PGlite; on PostgreSQL and through the Neon driver only the ones that touch
  // the database (tests/api/support/no-db.ts: the tag `no-db` marks the rest). Each run starts its own
  // throwaway server on a free port (or its own PGlite), so they can run beside each other.
  ...(['pglite', 'neon', 'postgres'] as const).map((target): Step => ({
    name: `api (${target})`,
    env: { API_DB: target, API_WORKERS: String(apiWorkers) },
    command: vitest(
      'vitest.api.config.ts',
      `test-results/api-${target}.json`,
      ...(target === 'pglite' ? [] : ['--tags-filter=!no-db']),
      // Ten thousand calls each (tag `flood`): once, on the real server when there is one.
      ...(target === 'neon' || (target === 'pglite' && postgresBin()) ? ['--tags-filter=!flood'] : []),
    ),
    report: vitestReport,
    reportFile: `test-results/api-${target}.json`,
    unavailable: target === 'pglite' ? undefined : noPostgres,
  })),
  {
    name: 'unit',
    command: vitest(undefined, 'test-results/unit.json'),
    report: vitestReport,
    reportFile: 'test-results/unit.json',
  },
  // `astro check` syncs .astro/ as the build does, so it runs after the build, never beside it.
  { name: 'check', command: ['npm', 'run', 'check'], needs: ['build'] },
  {
    // The function bundles as Netlify deploys them, in a plain Node process outside the repository; once,
    // against a real PostgreSQL when one is installed, otherwise the embedded PGlite.
    name: 'bundles',
    env: { API_DB: postgresBin() ? 'postgres' : 'pglite' },
    command: vitest('vitest.bundles.config.ts', 'test-results/bundles.json'),
    report: vitestReport,
    reportFile: 'test-results/bundles.json',
    needs: ['functions'],
  },
  { name: 'lint', command: ['npm', 'run', 'lint'] },
  // Gates over dist/ in one process that reads the site once (scripts/check-dist.ts); one result per gate.
  {
    name: 'dist',
    command: ['node', 'scripts/check-dist.ts', '--report', 'test-results/dist.json'],
    report: gatesReport,
    reportFile: 'test-results/dist.json',
    needs: ['build'],
  },
  // Spelling, contact details, sources, bylines, links and alt text in the content (docs/editing.md).
  { name: 'lint:content', command: ['npm', 'run', 'lint:content'] },
];

rmSync('test-results', { recursive: true, force: true });
// The preview of the end-to-end tests starts from an empty embedded database and a fresh content store every run.
for (const path of [
  '.data/e2e',
  '.data/e2e.admin.json',
  '.data/e2e.lock',
  '.data/e2e.url',
  '.data/e2e.content.git',
])
  rmSync(path, { recursive: true, force: true });
mkdirSync('test-results/logs', { recursive: true });

let passed = 0;
let failed = 0;
let skippedTests = 0;
/** Every failed test by name, and every test that passed only on its retry, repeated beside the summary. */
const failures: string[] = [];
const flaky: string[] = [];
/** Stages this machine cannot run, with the reason. */
const skippedStages = new Map<string, string>();
const failedSteps = new Set<string>();
const doneSteps = new Set<string>();
const timings = new Map<string, Timing>();
const runStarted = performance.now();
// Each stage in a control group of its own, so that its CPU counts every process it ran (scripts/lib/stage-cpu.ts).
const groups = StageGroups.open();
process.on('exit', () => groups?.close());
const busyAtStart = machineBusySeconds();
const since = () => (performance.now() - runStarted) / 1000;
const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '');

/**
 * A stage's counts from its runner's report; undefined when there is none or it cannot be read (a runner
 * killed while writing it), so the stage counts by its exit code and the run goes on to its summary.
 */
function readReport(report: (file: string) => Counts, file: string): Counts | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return report(file);
  } catch (error) {
    console.log(`▶ ${file} could not be read: ${(error as Error).message}`);
    return undefined;
  }
}

/** Runs one stage with its output in its log file; resolves once it exited and was counted. */
function run(step: Step): Promise<void> {
  const name = slug(step.name);
  const log = `test-results/logs/${name}.log`;
  const cpuFile = `test-results/logs/${name}.cpu`;
  const timed = timedCommand(step.command, cpuFile);
  const command = groups ? groups.wrap(name, timed) : timed;
  const start = since();
  console.log(`▶ ${step.name} started at ${start.toFixed(0)} s: ${step.command.join(' ')}`);
  return new Promise((resolve) => {
    const out = createWriteStream(log);
    const child = spawn(command[0]!, command.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code) => {
      out.end(() => {
        const ok = code === 0;
        const wall = since() - start;
        timings.set(step.name, {
          name: step.name,
          start,
          wall,
          cpu: readCpuSeconds(cpuFile),
          allCpu: groups?.cpuSeconds(name),
        });
        console.log(`\n▶ ${step.name}: ${ok ? 'passed' : 'FAILED'} in ${wall.toFixed(0)} s\n`);
        process.stdout.write(readFileSync(log));
        const counts = step.report && step.reportFile ? readReport(step.report, step.reportFile) : undefined;
        if (counts) {
          passed += counts.passed;
          failed += counts.failed;
          skippedTests += counts.skipped ?? 0;
          failures.push(...counts.failures.map((line) => `${step.name}: ${line}`));
          flaky.push(...(counts.flaky ?? []).map((line) => `${step.name}: ${line}`));
          if (!ok && counts.failed === 0) failed += 1;
        } else if (ok) passed += 1;
        else failed += 1;
        if (!ok) failedSteps.add(step.name);
        // A stage that failed without naming a test (the build, lint, a runner that crashed): its log's last lines.
        if (!ok && !counts?.failures.length)
          failures.push(
            `${step.name}: the end of ${log}:`,
            ...logTail(readFileSync(log, 'utf8')).map((line) => `    ${line}`),
          );
        doneSteps.add(step.name);
        resolve();
      });
    });
  });
}

const pending = [...steps];
const running = new Map<string, Promise<void>>();

while (pending.length > 0 || running.size > 0) {
  for (const step of [...pending]) {
    const needs = step.needs ?? [];
    if (needs.some((name) => failedSteps.has(name))) {
      pending.splice(pending.indexOf(step), 1);
      console.log(`▶ ${step.name}: skipped, ${needs.filter((n) => failedSteps.has(n)).join(', ')} failed`);
      failedSteps.add(step.name);
      doneSteps.add(step.name);
      failed += 1;
      continue;
    }
    const reason = step.unavailable?.();
    if (reason) {
      pending.splice(pending.indexOf(step), 1);
      doneSteps.add(step.name);
      if (process.env.CI) {
        console.log(`▶ ${step.name}: cannot run on CI: ${reason}`);
        failedSteps.add(step.name);
        failed += 1;
      } else {
        console.log(`▶ ${step.name}: skipped, ${reason}`);
        skippedStages.set(step.name, reason);
      }
      continue;
    }
    if (!needs.every((name) => doneSteps.has(name)) || running.size >= stages) continue;
    pending.splice(pending.indexOf(step), 1);
    running.set(
      step.name,
      run(step).then(() => void running.delete(step.name)),
    );
  }
  if (running.size > 0) await Promise.race(running.values());
  else if (pending.length > 0) throw new Error(`stages wait for each other: ${pending.map((s) => s.name)}`);
}

const summary = `tests: ${passed} passed, ${failed} failed`;
const table = formatTimings(
  steps.flatMap((step) => timings.get(step.name) ?? []).sort((a, b) => (a.start ?? 0) - (b.start ?? 0)),
  since(),
);
const busy = machineBusySeconds() - busyAtStart;
const offered = since() * machine.cores;
const machineLine =
  `machine: ${busy.toFixed(0)} CPU s busy of ${offered.toFixed(0)} (${machine.cores} cores × wall), ` +
  `${((100 * busy) / offered).toFixed(0)} %, other programs included` +
  (groups ? '' : '; all cpu s needs write access to the cgroup2 hierarchy (root)');
const leftovers = groups?.close() ?? [];
console.log(`\n${table}\n${machineLine}`);
if (leftovers.length > 0) console.log(`\nStill running after their stage ended: ${leftovers.join(', ')}`);
if (failedSteps.size > 0) console.log(`\nFailed: ${[...failedSteps].join(', ')}`);
// The stages' logs above tell them in full; CI keeps only the tail of the output, so they are named again here.
const named = [
  ...(failures.length > 0 ? ['What failed:', ...failures.map((line) => `  ${line}`)] : []),
  ...(flaky.length > 0 ? ['Passed on retry:', ...flaky.map((line) => `  ${line}`)] : []),
].join('\n');
if (named) console.log(`\n${named}`);
// Never a silent skip: what did not run, and why, stands above the count.
const notRun = [
  ...[...skippedStages].map(([name, reason]) => `Not run: ${name}: ${reason}`),
  ...(stillMissing.length > 0
    ? [`Missing system packages: ${stillMissing.join(' ')} (scripts/system-packages.sh install, as root)`]
    : []),
  ...(skippedTests > 0
    ? [`Skipped: ${skippedTests} tests, each by a condition it names (see the logs)`]
    : []),
].join('\n');
if (notRun) console.log(`\n${notRun}`);
writeFileSync(
  'test-results/summary.txt',
  [table, machineLine, named, notRun, summary].filter(Boolean).join('\n') + '\n',
);
console.log(summary);
process.exit(failedSteps.size === 0 ? 0 : 1);
