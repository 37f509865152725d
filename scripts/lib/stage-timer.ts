/**
 * Wall and CPU time of each `npm test` stage (scripts/test-all.ts). CPU seconds (user + system of the processes
 * the stage waited for) come from GNU time (`/usr/bin/time`, Debian's `time` package) when it is installed;
 * they tell a stage that waits from one that computes, which wall time on a shared machine does not. They miss
 * what a stage did not wait for (a browser's renderers); `all cpu s` counts that too where control groups allow.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface Timing {
  name: string;
  /** Wall seconds from start to exit. */
  wall: number;
  /** User + system CPU seconds of the stage's processes, when GNU time measured them. */
  cpu?: number;
  /** CPU seconds of every process the stage ran, from its control group (scripts/lib/stage-cpu.ts). */
  allCpu?: number;
  /** Wall seconds after the run started at which the stage started (stages may overlap). */
  start?: number;
}

const GNU_TIME = '/usr/bin/time';

/** The command wrapped in GNU time, writing "user system" seconds to `cpuFile`; unchanged without it. */
export function timedCommand(command: string[], cpuFile: string): string[] {
  return existsSync(GNU_TIME) ? [GNU_TIME, '-q', '-f', '%U %S', '-o', cpuFile, ...command] : command;
}

/** The CPU seconds `timedCommand` recorded, or undefined. */
export function readCpuSeconds(cpuFile: string): number | undefined {
  if (!existsSync(cpuFile)) return undefined;
  const last = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1) ?? '';
  const [user, system] = last.split(' ').map(Number);
  return Number.isFinite(user) && Number.isFinite(system) ? user! + system! : undefined;
}

const seconds = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));

/**
 * A plain-text table: one row per stage, then the run's wall time and the CPU seconds of all stages; the column
 * of every process's CPU (`all cpu s`) only when control groups measured it.
 */
export function formatTimings(timings: Timing[], total: number): string {
  const withAll = timings.some((t) => t.allCpu !== undefined);
  const sum = (pick: (t: Timing) => number | undefined) =>
    timings.every((t) => pick(t) === undefined)
      ? undefined
      : timings.reduce((acc, t) => acc + (pick(t) ?? 0), 0);
  const rows = timings.map((t) => [
    t.name,
    seconds(t.start),
    seconds(t.wall),
    seconds(t.cpu),
    ...(withAll ? [seconds(t.allCpu)] : []),
  ]);
  rows.push([
    'total',
    '',
    seconds(total),
    seconds(sum((t) => t.cpu)),
    ...(withAll ? [seconds(sum((t) => t.allCpu))] : []),
  ]);
  const header = ['stage', 'start s', 'wall s', 'cpu s', ...(withAll ? ['all cpu s'] : [])];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
