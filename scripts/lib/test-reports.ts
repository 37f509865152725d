/**
 * The counts npm test adds up (scripts/test-all.ts), read from each runner's JSON report, with the name and first
 * line of every failure (for a stage that names no test, the end of its log). A stage's whole log is printed
 * when it ends, often many screens above the run's last line; CI keeps only the tail of the output, so the
 * failures are named again beside the summary.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export interface Counts {
  passed: number;
  failed: number;
  /** Tests the runner skipped (a condition of this machine, such as a missing program). */
  skipped?: number;
  /** One line per failed test: where it is, its name and the first line of its error. */
  failures: string[];
  /** Tests that failed, then passed on their retry (counted as passed), in the same form. */
  flaky?: string[];
}

/** A failure in one line: name, then the first non-empty line of the message, both kept short. */
export function failureLine(name: string, message: string | undefined): string {
  const first = stripVTControlCharacters(message ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find(Boolean);
  const reason = first && first.length > 200 ? `${first.slice(0, 199)}…` : first;
  return reason ? `${name}: ${reason}` : name;
}

/** The last lines of a stage's log that say something, without colours: for a stage that names no test. */
export function logTail(log: string, lines = 15): string[] {
  return stripVTControlCharacters(log)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(-lines);
}

interface VitestAssertion {
  status: string;
  fullName: string;
  failureMessages?: string[];
  tags?: string[];
}
interface VitestFile {
  name: string;
  status: string;
  message?: string;
  assertionResults: VitestAssertion[];
}

/** Vitest's `--reporter=json`. */
export function vitestCounts(json: { numPassedTests: number; testResults: VitestFile[] }): Counts {
  const failures = json.testResults.flatMap((file) => {
    const where = relative(process.cwd(), file.name);
    const failedTests = file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => failureLine(`${where} › ${test.fullName}`, test.failureMessages?.[0]));
    // A file that failed outside any test (an import, a hook) has its error on the file.
    return failedTests.length === 0 && file.status === 'failed'
      ? [failureLine(where, file.message)]
      : failedTests;
  });
  return {
    passed: json.numPassedTests,
    // A file that failed to run counts once: Vitest counts only its tests, and it has none.
    failed: failures.length,
    // `no-db` and `flood` tests are left out of some runs by design (each runs once), not skipped.
    skipped: json.testResults
      .flatMap((file) => file.assertionResults)
      .filter(
        (test) =>
          ['skipped', 'pending', 'todo'].includes(test.status) &&
          !test.tags?.some((tag) => tag === 'no-db' || tag === 'flood'),
      ).length,
    failures,
  };
}

interface PlaywrightSuite {
  file: string;
  title: string;
  specs?: {
    title: string;
    line: number;
    tests: {
      projectName: string;
      status: string;
      results: { error?: { message?: string } }[];
    }[];
  }[];
  suites?: PlaywrightSuite[];
}

/** Playwright's JSON reporter. A test that passed on its retry counts as passed and is named as flaky. */
export function playwrightCounts(json: {
  stats: { expected: number; flaky: number; unexpected: number; skipped: number };
  suites: PlaywrightSuite[];
}): Counts {
  const failures: string[] = [];
  const flaky: string[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const name = `[${test.projectName}] ${suite.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
          const error = test.results.find((result) => result.error)?.error?.message;
          (test.status === 'flaky' ? flaky : failures).push(failureLine(name, error));
        }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of json.suites) walk(suite, []);
  return {
    passed: json.stats.expected + json.stats.flaky,
    failed: json.stats.unexpected,
    skipped: json.stats.skipped,
    failures,
    flaky,
  };
}

/** scripts/check-dist.ts --report: one entry per gate. */
export function gateCounts(gates: { gate: string; problems: number }[]): Counts {
  const failing = gates.filter((gate) => gate.problems > 0);
  return {
    passed: gates.length - failing.length,
    failed: failing.length,
    failures: failing.map(
      (gate) => `gate ${gate.gate}: ${gate.problems} problem${gate.problems === 1 ? '' : 's'}`,
    ),
  };
}

const fromFile =
  <T>(counts: (json: T) => Counts) =>
  (file: string): Counts =>
    counts(JSON.parse(readFileSync(file, 'utf8')) as T);
export const vitestReport = fromFile(vitestCounts);
export const playwrightReport = fromFile(playwrightCounts);
export const gatesReport = fromFile(gateCounts);
