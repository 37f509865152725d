/**
 * `npm test`: types, lint, the content linter, unit tests, API tests (embedded PGlite; then a real PostgreSQL
 * server, directly and through the Neon driver, whenever one is installed), the deployed function bundles,
 * build, the gates over dist/ (links, HTML
 * validity, JSON-LD, feeds and sitemap, social cards), budgets and end-to-end tests in Chromium, in that order.
 * Prints one closing line, `tests: N passed, M failed`, and writes it to test-results/summary.txt.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { formatTimings, timedCommand, readCpuSeconds, type Timing } from './lib/stage-timer.ts';
import { postgresBin } from '../tests/api/support/postgres.ts';

interface Step {
  name: string;
  command: string[];
  /** Reads passed/failed counts from the runner's JSON report; steps without one count as one check. */
  report?: (file: string) => { passed: number; failed: number };
  reportFile?: string;
  needs?: string[];
  env?: Record<string, string>;
  /** Why the step cannot run on this machine; it is then skipped and counted neither way. */
  unavailable?: () => string | undefined;
}

const vitestReport = (file: string) => {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: json.numPassedTests, failed: json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0) };
};
const playwrightReport = (file: string) => {
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
};

const steps: Step[] = [
  { name: 'check', command: ['npm', 'run', 'check'] },
  { name: 'lint', command: ['npm', 'run', 'lint'] },
  // Spelling, contact details, sources, bylines, links and alt text in the content (docs/editing.md).
  { name: 'lint:content', command: ['npm', 'run', 'lint:content'] },
  {
    name: 'unit',
    command: [
      'npx',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=test-results/unit.json',
    ],
    report: vitestReport,
    reportFile: 'test-results/unit.json',
  },
  ...(['pglite', 'postgres', 'neon'] as const).map((target): Step => ({
    name: `api (${target})`,
    env: { API_DB: target },
    command: [
      'npx',
      'vitest',
      'run',
      '--config',
      'vitest.api.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=test-results/api-${target}.json`,
    ],
    report: vitestReport,
    reportFile: `test-results/api-${target}.json`,
    unavailable: () =>
      target !== 'pglite' && !postgresBin()
        ? 'PostgreSQL is not installed (apt-get install postgresql)'
        : undefined,
  })),
  {
    // The function bundles as Netlify deploys them, in a plain Node process outside the repository; once,
    // against a real PostgreSQL when one is installed, otherwise the embedded PGlite.
    name: 'bundles',
    env: { API_DB: postgresBin() ? 'postgres' : 'pglite' },
    command: [
      'npx',
      'vitest',
      'run',
      '--config',
      'vitest.bundles.config.ts',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=test-results/bundles.json',
    ],
    report: vitestReport,
    reportFile: 'test-results/bundles.json',
  },
  { name: 'build', command: ['npm', 'run', 'build'] },
  // Gates over dist/: see scripts/check-dist.ts.
  ...(['links', 'html', 'structured-data', 'feeds', 'social-cards', 'fonts'] as const).map((gate): Step => ({
    name: `dist: ${gate}`,
    command: ['npm', 'run', 'check:dist', '--', gate],
    needs: ['build'],
  })),
  {
    name: 'e2e',
    command: ['npx', 'playwright', 'test'],
    report: playwrightReport,
    reportFile: 'test-results/e2e.json',
    needs: ['build'],
  },
];

rmSync('test-results', { recursive: true, force: true });
// The preview of the end-to-end tests starts from an empty embedded database every run.
for (const path of ['.data/e2e', '.data/e2e.admin.json', '.data/e2e.lock', '.data/e2e.url'])
  rmSync(path, { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });

let passed = 0;
let failed = 0;
const failedSteps = new Set<string>();
const timings: Timing[] = [];
const runStarted = performance.now();

for (const step of steps) {
  if (step.needs?.some((name) => failedSteps.has(name))) {
    console.log(`\n▶ ${step.name}: skipped, ${step.needs.join(', ')} failed`);
    failedSteps.add(step.name);
    failed += 1;
    continue;
  }
  const reason = step.unavailable?.();
  if (reason) {
    if (process.env.CI) {
      console.log(`\n▶ ${step.name}: cannot run on CI: ${reason}`);
      failedSteps.add(step.name);
      failed += 1;
    } else {
      console.log(`\n▶ ${step.name}: skipped, ${reason}`);
    }
    continue;
  }
  console.log(`\n▶ ${step.name}: ${step.command.join(' ')}`);
  const cpuFile = `test-results/.cpu-${timings.length}`;
  const command = timedCommand(step.command, cpuFile);
  const started = performance.now();
  const result = spawnSync(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  timings.push({
    name: step.name,
    start: (started - runStarted) / 1000,
    wall: (performance.now() - started) / 1000,
    cpu: readCpuSeconds(cpuFile),
  });
  const ok = result.status === 0;
  if (step.report && step.reportFile && existsSync(step.reportFile)) {
    const counts = step.report(step.reportFile);
    passed += counts.passed;
    failed += counts.failed;
    if (!ok && counts.failed === 0) failed += 1;
  } else {
    if (ok) passed += 1;
    else failed += 1;
  }
  if (!ok) failedSteps.add(step.name);
}

const summary = `tests: ${passed} passed, ${failed} failed`;
const table = formatTimings(timings, (performance.now() - runStarted) / 1000);
console.log(`\n${table}`);
if (failedSteps.size > 0) console.log(`\nFailed: ${[...failedSteps].join(', ')}`);
writeFileSync('test-results/summary.txt', `${table}\n${summary}\n`);
console.log(summary);
process.exit(failedSteps.size === 0 ? 0 : 1);
