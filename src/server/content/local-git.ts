/**
 * The local git store of dev, the preview and the tests: the git CLI on a bare repository — `CONTENT_REPO`,
 * or a throwaway clone of the project under .data/content-repo.git made on first use. Only plumbing commands
 * run (hash-object, commit-tree, update-ref with the old value, merge-tree): no working tree is touched, and a
 * branch moves only from the commit it was read at, so two saves at once cannot both win.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { ConfigError } from '../config.ts';
import {
  BranchMovedError,
  MergeConflictError,
  type Author,
  type CommitInput,
  type FileChange,
  type GitProvider,
  type Review,
} from './git.ts';

/** The server's own name on commits it makes for nobody in particular (merges carry the publisher). */
const COMMITTER: Author = { name: 'Korvel site', email: 'site@korvel.example' };
const REVIEWS = 'refs/reviews/';
const MAX_BUFFER = 64 * 1024 * 1024;

interface RunOptions {
  input?: Uint8Array | string;
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. 1 from merge-tree: conflicts). */
  ok?: number[];
}

/** Runs git in `dir`; resolves to stdout and the exit code, rejects on any other failure. */
function git(dir: string, args: string[], options: RunOptions = {}): Promise<{ out: Buffer; code: number }> {
  return new Promise((done, fail) => {
    const child = execFile(
      'git',
      ['-C', dir, ...args],
      {
        encoding: 'buffer',
        maxBuffer: MAX_BUFFER,
        // No user or system configuration: hooks, signing or a pager must not change what the store does.
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...options.env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (error && !options.ok?.includes(code))
          fail(new Error(`git ${args[0]} failed (${code}): ${stderr.toString().trim().slice(0, 500)}`));
        else done({ out: stdout, code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

const text = async (dir: string, args: string[], options?: RunOptions) =>
  (await git(dir, args, options)).out.toString('utf8').trim();

const authorEnv = (author: Author, committer: Author = author) => ({
  GIT_AUTHOR_NAME: author.name,
  GIT_AUTHOR_EMAIL: author.email,
  GIT_COMMITTER_NAME: committer.name,
  GIT_COMMITTER_EMAIL: committer.email,
});

/** A fresh bare repository whose `main` is the project's current commit; made aside, then moved into place. */
async function cloneProject(project: string, target: string): Promise<void> {
  mkdirSync(join(target, '..'), { recursive: true });
  const aside = mkdtempSync(`${target}.tmp-`);
  await text(aside, ['init', '--quiet', '--bare', '--initial-branch=main']);
  await text(aside, ['fetch', '--quiet', '--no-tags', resolve(project), 'HEAD:refs/heads/main']);
  if (existsSync(target)) rmSync(aside, { recursive: true, force: true });
  else renameSync(aside, target);
}

/** The local store on the repository at `dir` (a git directory, bare or not). */
export class LocalGit implements GitProvider {
  readonly main = 'main';
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * The store of this process: `CONTENT_REPO` when set (it must exist), else a clone of the project's current
   * commit made on first use: `<KORVEL_DATA_DIR>.content.git` beside the embedded database of a server that
   * has its own (the end-to-end preview, the benchmarks), so their tests never publish into the developer's
   * store, .data/content-repo.git, which `npm run dev` and `npm run preview` share.
   */
  static async open(env: NodeJS.ProcessEnv = process.env, project = process.cwd()): Promise<LocalGit> {
    const named = env.CONTENT_REPO?.trim();
    if (named) {
      if (!existsSync(named)) throw new ConfigError(`CONTENT_REPO names ${named}, which does not exist`);
      return new LocalGit(resolve(named));
    }
    const data = env.KORVEL_DATA_DIR?.trim();
    const dir = data ? resolve(project, `${data}.content.git`) : join(project, '.data', 'content-repo.git');
    if (!existsSync(dir)) await cloneProject(project, dir);
    return new LocalGit(dir);
  }

  async head(branch: string): Promise<string | undefined> {
    const { out, code } = await git(
      this.dir,
      ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`],
      {
        ok: [1],
      },
    );
    return code === 0 ? out.toString('utf8').trim() : undefined;
  }

  async branches(prefix: string): Promise<Map<string, string>> {
    const out = await text(this.dir, [
      'for-each-ref',
      '--format=%(objectname) %(refname)',
      `refs/heads/${prefix}`,
    ]);
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [sha, ref] = line.split(' ') as [string, string];
          return [ref.slice('refs/heads/'.length), sha];
        }),
    );
  }

  async files(commit: string, folders: readonly string[]): Promise<Map<string, string>> {
    const out = await text(this.dir, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...folders]);
    const files = new Map<string, string>();
    for (const entry of out.split('\0').filter(Boolean)) {
      const [meta, path] = entry.split('\t') as [string, string];
      const [, type, id] = meta.split(' ') as [string, string, string];
      if (type === 'blob') files.set(path, id);
    }
    return files;
  }

  async lastChanges(commit: string, paths: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (paths.length === 0) return found;
    // One walk, newest first: "\0<date>" then the files each commit changed.
    const out = await text(this.dir, ['log', '--format=%x00%cI', '--name-only', commit, '--', ...paths]);
    let date = '';
    for (const line of out.split('\n')) {
      if (line.startsWith('\0')) date = line.slice(1);
      else if (line && paths.includes(line) && !found.has(line)) found.set(line, date);
    }
    return found;
  }

  async blobs(ids: readonly string[]): Promise<Map<string, Uint8Array>> {
    const unique = [...new Set(ids)];
    const found = new Map<string, Uint8Array>();
    if (unique.length === 0) return found;
    // One `cat-file --batch`: "<id> blob <size>\n<content>\n" for each id asked.
    const { out } = await git(this.dir, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` });
    let at = 0;
    for (const id of unique) {
      const lineEnd = out.indexOf(10, at);
      const [, type, size] = out.subarray(at, lineEnd).toString('utf8').split(' ');
      if (type !== 'blob') throw new Error(`${id} is not a blob`);
      const start = lineEnd + 1;
      found.set(id, new Uint8Array(out.subarray(start, start + Number(size))));
      at = start + Number(size) + 1;
    }
    return found;
  }

  async commit(input: CommitInput): Promise<string> {
    const tree = await this.treeWith(input.parent, input.changes);
    const commit = await text(this.dir, ['commit-tree', tree, '-p', input.parent, '-F', '-'], {
      input: input.message,
      env: authorEnv(input.author, COMMITTER),
    });
    await this.moveRef(`refs/heads/${input.branch}`, commit, input.expected);
    return commit;
  }

  async reviews(): Promise<Map<string, Review>> {
    const out = await text(this.dir, ['for-each-ref', '--format=%(refname)', REVIEWS]);
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((ref) => ref.slice(REVIEWS.length))
        .map((branch) => [branch, { branch }]),
    );
  }

  async openReview(branch: string): Promise<Review> {
    const head = await this.head(branch);
    if (!head) throw new BranchMovedError(`there is no branch ${branch}`);
    // The review is a ref beside the branch: it names the branch while the review is open.
    await text(this.dir, ['update-ref', `${REVIEWS}${branch}`, head]);
    return { branch };
  }

  async merge(branch: string, message: string, author: Author): Promise<string> {
    const [main, head] = await Promise.all([this.head(this.main), this.head(branch)]);
    if (!main || !head) throw new BranchMovedError(`there is no branch ${main ? branch : this.main}`);
    const { out, code } = await git(this.dir, ['merge-tree', '--write-tree', '--no-messages', main, head], {
      ok: [1],
    });
    if (code === 1) throw new MergeConflictError(`${branch} and ${this.main} changed the same lines`);
    const tree = out.toString('utf8').split('\n')[0]!.trim();
    const commit = await text(this.dir, ['commit-tree', tree, '-p', main, '-p', head, '-F', '-'], {
      input: message,
      env: authorEnv(author, COMMITTER),
    });
    await this.moveRef(`refs/heads/${this.main}`, commit, main);
    await text(this.dir, ['update-ref', '-d', `refs/heads/${branch}`, head]);
    await git(this.dir, ['update-ref', '-d', `${REVIEWS}${branch}`], { ok: [1] });
    return commit;
  }

  /** The tree of `parent` with `changes` written, built in an index of its own (nothing else reads it). */
  private async treeWith(parent: string, changes: readonly FileChange[]): Promise<string> {
    const scratch = mkdtempSync(join(tmpdir(), 'korvel-index-'));
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    try {
      await text(this.dir, ['read-tree', parent], { env });
      for (const change of changes) {
        const blob = await text(this.dir, ['hash-object', '-w', '--stdin'], { input: change.content });
        await text(this.dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${change.path}`], {
          env,
        });
      }
      return await text(this.dir, ['write-tree'], { env });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** Moves `ref` to `to` only from `from` (undefined: only if it does not exist); else {@link BranchMovedError}. */
  private async moveRef(ref: string, to: string, from: string | undefined): Promise<void> {
    const { code } = await git(this.dir, ['update-ref', ref, to, from ?? '0'.repeat(40)], { ok: [128, 1] });
    if (code !== 0) throw new BranchMovedError(`${ref} moved since it was read`);
  }
}
