/**
 * The git store of production: the site's GitHub repository, through an installation of the firm's GitHub App
 * (@octokit/app; docs/editing.md, "One-time set-up"). Commits are built with the Git Data API — blobs, a tree
 * on the parent's, a commit with the admin account as its author — and a branch moves only as a fast-forward
 * from the commit it was read at, so a second save from an older version is refused (422) like the local
 * store's. A review is a pull request into main; publishing merges it, and Netlify builds main.
 */
import { App } from '@octokit/app';
import { ConfigError } from '../config.ts';
import {
  BranchMovedError,
  MergeConflictError,
  type Author,
  type CommitInput,
  type DeployStatus,
  type GitProvider,
  type Review,
} from './git.ts';

/** What the store needs of an Octokit: `request`, as @octokit/core defines it. */
export interface GitHubClient {
  request(route: string, parameters?: Record<string, unknown>): Promise<{ status: number; data: unknown }>;
}

interface RefData {
  ref: string;
  object: { sha: string };
}
interface TreeData {
  truncated: boolean;
  tree: { path: string; type: string; sha: string }[];
}
interface CombinedStatusData {
  statuses: {
    context: string;
    state: 'error' | 'failure' | 'pending' | 'success';
    target_url: string | null;
  }[];
}
interface PullData {
  number: number;
  html_url: string;
  head: { ref: string };
}

/** An error Octokit threw with this HTTP status. */
const hasStatus = (error: unknown, ...statuses: number[]) =>
  typeof error === 'object' &&
  error !== null &&
  statuses.includes((error as { status?: number }).status ?? 0);

const BLOB_CACHE_MAX = 2000;

export class GitHubGit implements GitProvider {
  readonly main: string;
  private readonly client: GitHubClient;
  private readonly repo: { owner: string; repo: string };
  /** Blobs never change: each is fetched once per function instance. */
  private readonly blobCache = new Map<string, Uint8Array>();

  constructor(client: GitHubClient, repository: string, main = 'main') {
    const [owner, repo] = repository.split('/');
    if (!owner || !repo) throw new ConfigError('GITHUB_REPOSITORY is owner/name, e.g. korvel/site');
    this.client = client;
    this.repo = { owner, repo };
    this.main = main;
  }

  /**
   * The store of the installation named by GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY (PEM; `\n` may stand for
   * line breaks), GITHUB_APP_INSTALLATION_ID and GITHUB_REPOSITORY; GITHUB_BRANCH names main if it is not
   * `main`. `Octokit` lets the tests hand in one that records requests instead of sending them.
   */
  static async open(env: NodeJS.ProcessEnv, Octokit?: ConstructorParameters<typeof App>[0]['Octokit']) {
    const missing = [
      'GITHUB_APP_ID',
      'GITHUB_APP_PRIVATE_KEY',
      'GITHUB_APP_INSTALLATION_ID',
      'GITHUB_REPOSITORY',
    ].filter((name) => !env[name]?.trim());
    if (missing.length > 0)
      throw new ConfigError(`${missing.join(', ')} not set (docs/editing.md, "One-time set-up")`);
    const installationId = Number(env.GITHUB_APP_INSTALLATION_ID);
    if (!Number.isSafeInteger(installationId))
      throw new ConfigError('GITHUB_APP_INSTALLATION_ID is a number');
    const app = new App({
      appId: env.GITHUB_APP_ID!.trim(),
      privateKey: env.GITHUB_APP_PRIVATE_KEY!.replace(/\\n/g, '\n'),
      ...(Octokit && { Octokit }),
    });
    const client = (await app.getInstallationOctokit(installationId)) as unknown as GitHubClient;
    return new GitHubGit(client, env.GITHUB_REPOSITORY!.trim(), env.GITHUB_BRANCH?.trim() || 'main');
  }

  private call(route: string, parameters: Record<string, unknown> = {}) {
    return this.client.request(route, { ...this.repo, ...parameters });
  }

  async head(branch: string): Promise<string | undefined> {
    try {
      const { data } = await this.call('GET /repos/{owner}/{repo}/git/ref/{ref}', { ref: `heads/${branch}` });
      return (data as RefData).object.sha;
    } catch (error) {
      if (hasStatus(error, 404)) return undefined;
      throw error;
    }
  }

  async branches(prefix: string): Promise<Map<string, string>> {
    const { data } = await this.call('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', {
      ref: `heads/${prefix}`,
    });
    return new Map((data as RefData[]).map((ref) => [ref.ref.slice('refs/heads/'.length), ref.object.sha]));
  }

  async files(commit: string, folders: readonly string[]): Promise<Map<string, string>> {
    const { data } = await this.call('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', {
      tree_sha: commit,
      recursive: '1',
    });
    const tree = data as TreeData;
    if (tree.truncated) throw new Error('the repository tree is too large for one listing');
    const within = (path: string) =>
      folders.some((folder) => path === folder || path.startsWith(`${folder}/`));
    return new Map(
      tree.tree.filter((entry) => entry.type === 'blob' && within(entry.path)).map((e) => [e.path, e.sha]),
    );
  }

  async lastChanges(commit: string, paths: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const path of paths) {
      const { data } = await this.call('GET /repos/{owner}/{repo}/commits', {
        sha: commit,
        path,
        per_page: 1,
      });
      const date = (data as { commit: { committer: { date: string } } }[])[0]?.commit.committer.date;
      if (date) found.set(path, date);
    }
    return found;
  }

  async blobs(ids: readonly string[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    for (const id of new Set(ids)) {
      let bytes = this.blobCache.get(id);
      if (!bytes) {
        const { data } = await this.call('GET /repos/{owner}/{repo}/git/blobs/{file_sha}', { file_sha: id });
        bytes = new Uint8Array(Buffer.from((data as { content: string }).content, 'base64'));
        if (this.blobCache.size >= BLOB_CACHE_MAX) this.blobCache.clear();
        this.blobCache.set(id, bytes);
      }
      found.set(id, bytes);
    }
    return found;
  }

  async commit(input: CommitInput): Promise<string> {
    const tree = [];
    for (const change of input.changes) {
      const { data } = await this.call('POST /repos/{owner}/{repo}/git/blobs', {
        content: Buffer.from(change.content).toString('base64'),
        encoding: 'base64',
      });
      tree.push({ path: change.path, mode: '100644', type: 'blob', sha: (data as { sha: string }).sha });
    }
    const { data: parent } = await this.call('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
      commit_sha: input.parent,
    });
    const { data: newTree } = await this.call('POST /repos/{owner}/{repo}/git/trees', {
      base_tree: (parent as { tree: { sha: string } }).tree.sha,
      tree,
    });
    const { data: commit } = await this.call('POST /repos/{owner}/{repo}/git/commits', {
      message: input.message,
      tree: (newTree as { sha: string }).sha,
      parents: [input.parent],
      author: { name: input.author.name, email: input.author.email },
    });
    const sha = (commit as { sha: string }).sha;
    try {
      if (input.expected === undefined)
        await this.call('POST /repos/{owner}/{repo}/git/refs', { ref: `refs/heads/${input.branch}`, sha });
      // Not forced: GitHub moves the branch only if the new commit descends from where it points now.
      else
        await this.call('PATCH /repos/{owner}/{repo}/git/refs/{ref}', {
          ref: `heads/${input.branch}`,
          sha,
          force: false,
        });
    } catch (error) {
      if (hasStatus(error, 409, 422)) throw new BranchMovedError(`${input.branch} moved since it was read`);
      throw error;
    }
    return sha;
  }

  async reviews(): Promise<Map<string, Review>> {
    const { data } = await this.call('GET /repos/{owner}/{repo}/pulls', {
      state: 'open',
      base: this.main,
      per_page: 100,
    });
    return new Map(
      (data as PullData[]).map((pull) => [
        pull.head.ref,
        { branch: pull.head.ref, number: pull.number, url: pull.html_url },
      ]),
    );
  }

  async openReview(branch: string, title: string, body: string): Promise<Review> {
    const open = (await this.reviews()).get(branch);
    if (open) return open;
    const { data } = await this.call('POST /repos/{owner}/{repo}/pulls', {
      title,
      body,
      head: branch,
      base: this.main,
    });
    const pull = data as PullData;
    return { branch, number: pull.number, url: pull.html_url };
  }

  async merge(branch: string, message: string, author: Author): Promise<string> {
    const review = (await this.reviews()).get(branch);
    if (!review?.number) throw new BranchMovedError(`there is no open pull request for ${branch}`);
    let sha: string;
    try {
      const { data } = await this.call('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
        pull_number: review.number,
        merge_method: 'merge',
        commit_title: message,
        commit_message: `Published by ${author.name} <${author.email}> in the admin's Content tab.`,
      });
      sha = (data as { sha: string }).sha;
    } catch (error) {
      if (hasStatus(error, 405, 409))
        throw new MergeConflictError(`${branch} cannot be merged into ${this.main}`);
      throw error;
    }
    await this.call('DELETE /repos/{owner}/{repo}/git/refs/{ref}', { ref: `heads/${branch}` });
    return sha;
  }

  /**
   * Netlify's commit status on `commit` (context `netlify/<site>/deploy-preview`, or `…/branch-deploy`):
   * pending while it builds, success with the deploy's address when ready, failure or error when the build
   * failed (GitHub's combined status lists the latest status of each context). Needs the App's _Commit
   * statuses: read_ permission.
   */
  async deployStatus(commit: string): Promise<DeployStatus | undefined> {
    const { data } = await this.call('GET /repos/{owner}/{repo}/commits/{ref}/status', { ref: commit });
    // Newest first, as GitHub lists them; the first of Netlify's is where the deploy stands now.
    const status = (data as CombinedStatusData).statuses.find((s) => /^netlify\//.test(s.context));
    if (!status) return undefined;
    const state = status.state === 'success' ? 'ready' : status.state === 'pending' ? 'building' : 'failed';
    // While building or after a failure the link is Netlify's deploy log; only a ready deploy's is the site.
    const url = state === 'ready' && status.target_url?.startsWith('https://') ? status.target_url : null;
    return { state, url };
  }
}
