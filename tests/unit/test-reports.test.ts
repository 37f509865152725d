import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  failureLine,
  gateCounts,
  logTail,
  playwrightReport,
  vitestReport,
} from '../../scripts/lib/test-reports.ts';

// The reports come from real runs of the two runners this project uses, on a passing, a failing and (Playwright)
// a flaky test in a scratch directory, so a change in a runner's report format fails here, not on CI.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'korvel-reports-'));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a runner in the scratch directory; both exit 1 when a test failed. */
function runner(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('npx', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CI: '', ...env },
  });
  expect(result.status, result.stdout + result.stderr).toBe(1);
}

describe('reading the runners’ reports', () => {
  test('Vitest: each failed test by file and full name with the first line of its error, a file that failed to run once', () => {
    writeFileSync(
      join(dir, 'sample.test.ts'),
      [
        "import { describe, expect, test } from 'vitest';",
        "describe('mail', () => {",
        "  test('arrives', () => expect(1).toBe(1));",
        "  test('bounces', () => expect('\\n  sent').toBe('bounced'));",
        '});',
        "test.skip('later', () => {});",
      ].join('\n'),
    );
    writeFileSync(join(dir, 'broken.test.ts'), "throw new Error('cannot import the harness');\n");
    runner(['vitest', 'run', '--root', dir, '--reporter=json', '--outputFile.json=vitest.json']);
    const counts = vitestReport(join(dir, 'vitest.json'));
    expect(counts).toMatchObject({ passed: 1, failed: 2, skipped: 1 });
    expect(counts.failures).toHaveLength(2);
    expect(counts.failures).toContainEqual(
      expect.stringMatching(
        /^\S*sample\.test\.ts › mail bounces: AssertionError: expected .* to be 'bounced'/,
      ),
    );
    expect(counts.failures).toContainEqual(
      expect.stringMatching(/^\S*broken\.test\.ts: cannot import the harness$/),
    );
  });

  test('Playwright: failed and flaky tests apart, with project, file, line and titles', () => {
    writeFileSync(
      join(dir, 'playwright.config.ts'),
      "export default { testDir: '.', testMatch: 'sample.spec.ts', retries: 1, projects: [{ name: 'desktop' }] };\n",
    );
    writeFileSync(
      join(dir, 'sample.spec.ts'),
      [
        "import { expect, test } from '@playwright/test';",
        "test.describe('booking', () => {",
        "  test('confirms', () => expect(2).toBe(2));",
        "  test('cancels', () => expect(2, 'the slot is free again').toBe(3));",
        "  test('moves', ({}, info) => expect(info.retry).toBe(1));",
        '});',
      ].join('\n'),
    );
    const report = join(dir, 'e2e.json');
    runner(['playwright', 'test', '--reporter=json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
    const counts = playwrightReport(report);
    expect(counts).toMatchObject({ passed: 2, failed: 1, skipped: 0 });
    expect(counts.failures).toEqual([
      expect.stringMatching(
        /^\[desktop\] sample\.spec\.ts:4 › booking › cancels: Error: the slot is free again/,
      ),
    ]);
    expect(counts.flaky).toEqual([
      expect.stringMatching(/^\[desktop\] sample\.spec\.ts:5 › booking › moves: /),
    ]);
  });
});

describe('the gates, the one-line form and a log’s end', () => {
  test('a gate with problems is one failure, named with its count', () => {
    expect(
      gateCounts([
        { gate: 'links', problems: 0 },
        { gate: 'feeds', problems: 1 },
        { gate: 'html', problems: 3 },
      ]),
    ).toEqual({ passed: 1, failed: 2, failures: ['gate feeds: 1 problem', 'gate html: 3 problems'] });
  });

  test('a stage without a report shows the last lines of its log that say something, without colours', () => {
    const log = [
      '> astro check',
      '',
      '\u001b[31merror\u001b[39m ts(2322): Type x',
      '  ',
      'Result: 1 error',
      '',
    ].join('\n');
    expect(logTail(log, 2)).toEqual(['error ts(2322): Type x', 'Result: 1 error']);
    expect(logTail(log)).toEqual(['> astro check', 'error ts(2322): Type x', 'Result: 1 error']);
  });

  test('keeps the first non-empty line, without colours, at most 200 characters', () => {
    expect(failureLine('a › b', '\n\u001b[31mexpected 1\u001b[39m\n  at x.ts:1')).toBe('a › b: expected 1');
    expect(failureLine('a', undefined)).toBe('a');
    expect(failureLine('a', 'x'.repeat(300))).toBe(`a: ${'x'.repeat(199)}…`);
  });
});
