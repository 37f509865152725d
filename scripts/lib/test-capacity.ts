/**
 * How much `npm test` runs at once, from what the machine has when it starts: its cores, how many of them
 * something else keeps busy, and its free memory. On the project's 2-core machine with nothing else running
 * this gives the figures measured best there (issue 26: three stages, four end-to-end workers, two files per
 * API run); a core taken by another program, the full Chromium instead of its headless shell, or little
 * memory each lower them, so a fresh clone is never run at a load of 17 (issue 40).
 */
import { cpus, freemem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Machine {
  cores: number;
  /** Cores kept busy by other programs when the run starts (0 … cores, fractional). */
  busyCores: number;
  /** Memory free for the run, in GiB. */
  freeGiB: number;
  /** Whether the end-to-end tests get Chromium's headless shell (about half the CPU per page of the full browser). */
  headlessShell: boolean;
}

export interface Capacity {
  /** Stages that run side by side. */
  stages: number;
  /** Playwright workers of the end-to-end stage. */
  e2eWorkers: number;
  /** Test files one API run takes at a time. */
  apiWorkers: number;
}

/** Memory one stage may hold at its peak: the build, or an API run's two scrypt runs and embedded database. */
const GIB_PER_STAGE = 1.5;
/** A Chromium worker with its renderer and the preview's share. */
const GIB_PER_BROWSER = 0.75;

/**
 * The figures for `machine`. A stage mostly keeps less than a core busy, so there is one more stage than free
 * cores; an end-to-end worker in the headless shell uses about half a core, so two per free core (at most
 * eight), and one per core with the full browser.
 *
 * @example capacityFor({ cores: 2, busyCores: 0, freeGiB: 20, headlessShell: true }) // → 3 stages, 4 workers, 2
 * @example capacityFor({ cores: 2, busyCores: 1, freeGiB: 20, headlessShell: true }) // → 2 stages, 2 workers, 1
 */
export function capacityFor(machine: Machine): Capacity {
  const freeCores = Math.max(1, Math.round(machine.cores - machine.busyCores));
  const byMemory = (perUnit: number) => Math.max(1, Math.floor(machine.freeGiB / perUnit));
  return {
    stages: Math.min(freeCores + 1, byMemory(GIB_PER_STAGE)),
    e2eWorkers: Math.min(8, (machine.headlessShell ? 2 : 1) * freeCores, byMemory(GIB_PER_BROWSER)),
    apiWorkers: Math.min(2, freeCores),
  };
}

const totals = () =>
  cpus().map(({ times }) => ({
    idle: times.idle,
    all: times.user + times.nice + times.sys + times.idle + times.irq,
  }));

/** Cores kept busy by other programs, sampled over `ms` (the runner itself is idle meanwhile). */
export async function busyCores(ms = 1000): Promise<number> {
  const before = totals();
  await sleep(ms);
  const after = totals();
  return after.reduce((busy, core, i) => {
    const all = core.all - before[i]!.all;
    return all > 0 ? busy + 1 - (core.idle - before[i]!.idle) / all : busy;
  }, 0);
}

/** Busy CPU seconds of the whole machine since boot, all cores and programs (the run's closing line). */
export const machineBusySeconds = (): number =>
  totals().reduce((busy, core) => busy + core.all - core.idle, 0) / 1000;

/** This machine as {@link capacityFor} needs it. */
export async function readMachine(headlessShell: boolean): Promise<Machine> {
  return {
    cores: cpus().length,
    busyCores: await busyCores(),
    freeGiB: freemem() / 2 ** 30,
    headlessShell,
  };
}
