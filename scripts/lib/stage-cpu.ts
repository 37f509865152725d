/**
 * CPU seconds of every process of an `npm test` stage, from a control group of its own (cgroup v2 `cpu.stat`).
 * GNU time (scripts/lib/stage-timer.ts) counts only the processes a stage waited for: the browsers' renderers,
 * which Playwright's workers do not wait for, and servers a stage started fall outside it. On 29 November 2026
 * the stages' GNU time added up to 1,409 CPU s of a run in which the machine was busy for 2,574 (e2e: 508 of 1,595).
 * A group needs write access to the cgroup2 hierarchy (root on the project's machine kind); without it
 * {@link StageGroups.open} gives undefined and the table keeps GNU time's figures alone. The groups only count:
 * where the cpu controller is enabled on the cgroup2 hierarchy, each stage's group would also get the default
 * weight (an equal share per stage); on the project's machine kind the cpu controller is cgroup v1's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The cgroup2 directory of the process reading `mounts` and `ownGroups` (/proc/mounts and /proc/self/cgroup),
 * or undefined where there is no cgroup2 hierarchy.
 * @example cgroupDirectory('cgroup2 /sys/fs/cgroup cgroup2 rw 0 0', '0::/user.slice') // '/sys/fs/cgroup/user.slice'
 */
export function cgroupDirectory(mounts: string, ownGroups: string): string | undefined {
  const mount = mounts
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[2] === 'cgroup2')?.[1];
  const own = ownGroups
    .split('\n')
    .find((line) => line.startsWith('0::'))
    ?.slice(3);
  return mount && own !== undefined ? join(mount, own.replace(/^\//, '')) : undefined;
}

/** `usage_usec` of a cgroup2 `cpu.stat`, in seconds. */
export function usageSeconds(cpuStat: string): number | undefined {
  const usec = /^usage_usec (\d+)$/m.exec(cpuStat)?.[1];
  return usec === undefined ? undefined : Number(usec) / 1e6;
}

/**
 * Removes an empty group. A process that just ended keeps its group busy until its parent has reaped it (an
 * orphan's parent is PID 1, which may take a moment), so this tries for up to a second.
 */
function removeGroup(dir: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EBUSY') return;
      Atomics.wait(pause, 0, 0, 50);
    }
  }
}

/** Runs of {@link StageGroups.open} in this process, so that each has a group name of its own. */
let opened = 0;

/** Moves a shell into the group `$0`, then runs the command in it: every process it starts stays in the group. */
const ENTER = 'echo $$ > "$0/cgroup.procs" && exec "$@"';

/** A control group per stage under one for the run, created in this process's own group. */
export class StageGroups {
  /** This process's own group, where a process left running goes back to. */
  private readonly home: string;
  /** The run's group, holding one group per stage. */
  private readonly root: string;

  private constructor(home: string, root: string) {
    this.home = home;
    this.root = root;
  }

  /** The run's groups, or undefined where they cannot be made or entered (no cgroup2, no permission). */
  static open(): StageGroups | undefined {
    let home: string | undefined;
    try {
      home = cgroupDirectory(readFileSync('/proc/mounts', 'utf8'), readFileSync('/proc/self/cgroup', 'utf8'));
    } catch {
      return undefined;
    }
    if (!home) return undefined;
    opened += 1;
    const groups = new StageGroups(home, join(home, `korvel-test-${process.pid}-${opened}`));
    try {
      mkdirSync(groups.root);
      // Entering a group needs write access to the common parent's cgroup.procs as well: tried once here.
      const probe = spawnSync('sh', ['-c', ENTER, groups.dirOf('probe'), 'true']);
      if (probe.status === 0) return groups;
    } catch {
      // Read-only hierarchy, or not allowed to make groups: GNU time alone.
    }
    groups.close();
    return undefined;
  }

  private dirOf(stage: string): string {
    const dir = join(this.root, stage);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The command, started inside the stage's own group. */
  wrap(stage: string, command: string[]): string[] {
    return ['sh', '-c', ENTER, this.dirOf(stage), ...command];
  }

  /** CPU seconds of every process the stage has run so far, those still running included. */
  cpuSeconds(stage: string): number | undefined {
    try {
      return usageSeconds(readFileSync(join(this.root, stage, 'cpu.stat'), 'utf8'));
    } catch {
      return undefined;
    }
  }

  /** The processes in the stage's group now. */
  processes(stage: string): number[] {
    try {
      return readFileSync(join(this.root, stage, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  }

  /**
   * Removes the groups. A process a stage left running (nothing should) goes back to this process's group, so
   * the groups can go; it is named, since it is a stage's bug.
   */
  close(): string[] {
    const leftovers: string[] = [];
    let stages: string[];
    try {
      stages = readdirSync(this.root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      // Closed already (the exit hook after the run's own close).
      return leftovers;
    }
    for (const stage of stages) {
      for (const pid of this.processes(stage)) {
        leftovers.push(`${stage}: pid ${pid}`);
        try {
          writeFileSync(join(this.home, 'cgroup.procs'), String(pid));
        } catch {
          // Gone meanwhile.
        }
      }
      removeGroup(join(this.root, stage));
    }
    removeGroup(this.root);
    return leftovers;
  }
}
