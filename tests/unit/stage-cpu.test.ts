import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cgroupDirectory, StageGroups, usageSeconds } from '../../scripts/lib/stage-cpu.ts';
import { formatTimings, readCpuSeconds, timedCommand } from '../../scripts/lib/stage-timer.ts';

describe('reading the control groups', () => {
  test('finds this process’s cgroup2 directory beside cgroup v1 hierarchies', () => {
    const mounts = [
      'cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0',
      'cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0',
    ].join('\n');
    expect(cgroupDirectory(mounts, '2:cpuacct:/\n0::/\n')).toBe('/sys/fs/cgroup/unified');
    expect(cgroupDirectory(mounts, '0::/user.slice/session-4.scope\n')).toBe(
      '/sys/fs/cgroup/unified/user.slice/session-4.scope',
    );
  });

  test('gives none without a cgroup2 hierarchy', () => {
    expect(cgroupDirectory('cgroup /sys/fs/cgroup/cpu cgroup rw 0 0', '1:cpu:/\n')).toBeUndefined();
  });

  test('reads usage_usec as seconds', () => {
    expect(usageSeconds('usage_usec 2512345678\nuser_usec 2000000000\nsystem_usec 512345678\n')).toBe(
      2512.345678,
    );
    expect(usageSeconds('nr_periods 0\n')).toBeUndefined();
  });
});

describe('the stage table', () => {
  test('shows every process’s CPU beside GNU time’s where groups measured it', () => {
    const table = formatTimings(
      [
        { name: 'build', start: 0, wall: 88.5, cpu: 44.3, allCpu: 61.2 },
        { name: 'e2e', start: 134.2, wall: 1163.1, cpu: 519, allCpu: 1012.4 },
      ],
      1301.1,
    ).split('\n');
    expect(table[0]).toMatch(/^stage\s+start s\s+wall s\s+cpu s\s+all cpu s$/);
    expect(table[2]).toMatch(/^e2e\s+134\.2\s+1163\.1\s+519\.0\s+1012\.4$/);
    expect(table[3]).toMatch(/^total\s+1301\.1\s+563\.3\s+1073\.6$/);
  });

  test('leaves the column out where no group measured anything', () => {
    const [header] = formatTimings([{ name: 'lint', start: 0, wall: 20, cpu: 18 }], 20).split('\n');
    expect(header).not.toContain('all cpu s');
  });
});

const groups = StageGroups.open();
/** Root on the project's machine kind; elsewhere the groups cannot be made and GNU time stands alone. */
const writable = groups !== undefined;
groups?.close();

/** Resolves once `holds` does, checking every 50 ms (the test's timeout bounds a hang). */
async function until(holds: () => boolean): Promise<void> {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('a stage in its own control group', () => {
  test.skipIf(!writable)(
    'counts the CPU of a process the stage never waited for, which GNU time leaves out',
    async () => {
      const stages = StageGroups.open()!;
      const cpuFile = join(mkdtempSync(join(tmpdir(), 'korvel-stage-cpu-')), 'orphan.cpu');
      try {
        // The shell exits at once; its background child then burns a second of CPU on its own, as a browser's
        // renderer does for Playwright's worker.
        const burn = `${process.execPath} -e 'while (process.cpuUsage().user < 1e6);'`;
        const [command, ...args] = stages.wrap(
          'orphan',
          timedCommand(['sh', '-c', `(${burn} &) ; exit 0`], cpuFile),
        );
        await new Promise((resolve) => spawn(command!, args, { stdio: 'ignore' }).on('exit', resolve));
        // The group's count reaches the burner's second however long a loaded machine makes it take.
        await until(() => (stages.cpuSeconds('orphan') ?? 0) >= 1);
        // GNU time, where installed, counted only the shell it waited for.
        const timed = readCpuSeconds(cpuFile);
        if (timed !== undefined) expect(timed).toBeLessThan(0.5);
      } finally {
        // The burner may still be finishing (it is the leftover the next test is about).
        stages.close();
        rmSync(dirname(cpuFile), { recursive: true, force: true });
      }
    },
  );

  test.skipIf(!writable)('moves a process still running out of the group and names it', async () => {
    const stages = StageGroups.open()!;
    const [command, ...args] = stages.wrap('server', ['sleep', '30']);
    const sleeper = spawn(command!, args, { stdio: 'ignore' });
    try {
      await until(() => stages.processes('server').length === 1);
      expect(stages.close()).toEqual([`server: pid ${sleeper.pid}`]);
    } finally {
      sleeper.kill();
    }
  });
});
