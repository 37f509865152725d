/**
 * `npm run bench:build [-- --count N] [-- --log file] [-- --keep]`: how the static build scales with the number of articles. Copies the
 * project's sources (not node_modules, which is linked) into a temporary directory, builds today's site there,
 * then adds N synthetic blog articles (default 1,000; copies of one real article under new titles and dates,
 * reusing its drawings) and builds again. Prints pages, build time and peak resident memory of the build's
 * process tree for both. Nothing is written under src/: the copy is removed at the end, on Ctrl-C too.
 * Social cards are cached by a hash of their inputs (node_modules/.cache/og), so a second run with the same N
 * draws none; the first run draws one per synthetic article. `--log` appends Astro's output of both builds to a file;
 * `--keep` leaves the copy with its articles in place (its path is printed) for a profiler.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILD_ENV, buildSteps } from '../lib/build-env.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    log: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a whole number above 0');

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'korvel-bench-build-'));
const cleanUp = () => rmSync(work, { recursive: true, force: true });
/** The build step running now: on Ctrl-C it is stopped first, so it cannot write into the copy after its removal. */
let running: ChildProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running!.on('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    }
    cleanUp();
    process.exit(130);
  });

/** The project without node_modules, .git and build output; node_modules is a link to the real one. */
function copyProject(): void {
  const skip = new Set(['node_modules', '.git', 'dist', '.astro', '.netlify', '.data', 'test-results']);
  for (const name of readdirSync(root)) {
    if (skip.has(name)) continue;
    cpSync(join(root, name), join(work, name), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
}

/** N blog articles: the GMP article's body and drawings under a numbered title, one day apart, with tags varied. */
function addSyntheticArticles(n: number): void {
  const source = readFileSync(join(root, 'src/content/blog/gmp.mdx'), 'utf8');
  const [, frontmatter, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source)!;
  const keep = frontmatter!.replace(/^(title|summary|date|updated): .*\n/gm, '');
  // The copy's route list names them too, as an editor adds an article: pages, sitemap and social cards.
  const routesFile = join(work, 'src/routes.ts');
  const ids = Array.from({ length: n }, (_, i) => `  'bench-${String(i + 1).padStart(5, '0')}',`).join('\n');
  writeFileSync(
    routesFile,
    readFileSync(routesFile, 'utf8').replace(
      'export const articles = [\n',
      `export const articles = [\n${ids}\n`,
    ),
  );
  // Tags the site names in both languages (a tag without a name fails the build).
  const tags = [
    'pharma',
    'gmp',
    'facility-design',
    'utilities',
    'regulatory',
    'cleanrooms',
    'ultrapure-water',
    'design',
  ];
  for (let i = 1; i <= n; i++) {
    const number = String(i).padStart(5, '0');
    const date = new Date(Date.UTC(2019, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const picked = [tags[i % tags.length], tags[(i * 3 + 1) % tags.length]];
    const head = keep.replace(/^tags: .*$/m, `tags: [${[...new Set(picked)].join(', ')}]`);
    writeFileSync(
      join(work, 'src/content/blog', `bench-${number}.mdx`),
      `---\ntitle: 'Benchmark article ${number} on plant design'\nsummary: 'A synthetic copy of the GMP article that the build benchmark adds to measure how the static build grows with the number of articles.'\ndate: ${date}\n${head}\n---\n${body}`,
    );
  }
}

interface Result {
  label: string;
  pages: number;
  seconds: number;
  /** User plus system CPU time of the build's processes: steadier than wall time on a shared machine. */
  cpuSeconds: number;
  peakMb: number;
}

/**
 * CPU seconds (user + system) of this process's finished, waited-for children and their own waited-for
 * descendants: fields 16 and 17 of /proc/self/stat (cutime, cstime), in clock ticks of 1/100 s.
 */
function childCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After the name, field 3 (state) is index 0: cutime is field 16, cstime field 17.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Resident memory of a process and each of its descendants (name, kB), from /proc. */
function treeRss(pid: number, into: [string, number][] = []): [string, number][] {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    into.push([/Name:\s+(\S+)/.exec(status)?.[1] ?? '?', Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)]);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) treeRss(Number(child), into);
    }
  } catch {
    // The process ended while being read.
  }
  return into;
}

function countPages(dir: string): number {
  let pages = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && entry.name.endsWith('.html')) pages += 1;
  return pages;
}

/** Runs one step of `npm run build` in the copy; its output, and its peak memory with where it was reached. */
async function step(args: string[]): Promise<{ log: string; peakKb: number; peakAt: string }> {
  const child = spawn(process.execPath, args, {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...BUILD_ENV },
  });
  running = child;
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let peakKb = 0;
  let peakAt = '';
  const timer = setInterval(() => {
    const processes = treeRss(child.pid!);
    const kb = processes.reduce((sum, [, rss]) => sum + rss, 0);
    if (kb > peakKb) {
      peakKb = kb;
      const each = processes.map(([name, rss]) => `${name} ${Math.round(rss / 1024)} MB`).join(', ');
      peakAt = `${new Date().toISOString().slice(11, 19)} UTC: ${each}`;
    }
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}\n${log.slice(-4000)}`);
  return { log, peakKb, peakAt };
}

/** `npm run build` in the copy, step by step (scripts/lib/build-env.ts): `astro build`, then the search index. */
async function build(label: string): Promise<Result> {
  rmSync(join(work, 'dist'), { recursive: true, force: true });
  const started = performance.now();
  const cpuBefore = childCpuSeconds();
  const steps: Awaited<ReturnType<typeof step>>[] = [];
  for (const args of buildSteps(work)) steps.push(await step(args));
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = childCpuSeconds() - cpuBefore;
  if (values.log)
    for (const { log, peakAt } of steps)
      appendFileSync(values.log, `\n=== ${label} (peak RSS at ${peakAt})\n${log}`);
  const peakKb = Math.max(...steps.map((s) => s.peakKb));
  return { label, pages: countPages(join(work, 'dist')), seconds, cpuSeconds, peakMb: peakKb / 1024 };
}

try {
  copyProject();
  const results = [await build("today's site")];
  addSyntheticArticles(count);
  results.push(await build(`+ ${count.toLocaleString('en-GB')} articles`));
  const rows = results.map((r) => [
    r.label,
    String(r.pages),
    r.seconds.toFixed(1),
    r.cpuSeconds.toFixed(1),
    r.peakMb.toFixed(0),
  ]);
  const header = ['build', 'pages', 'time s', 'CPU s', 'peak RSS MB'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(`\n${line(header)}`);
  console.log(`| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
} finally {
  if (values.keep) console.log(`\nThe copy is kept at ${work}`);
  else cleanUp();
}
