/**
 * The git store behind the Content tab: one interface, two implementations — the local repository of dev and
 * the tests (local-git.ts: the git CLI on a bare repository) and the site's GitHub repository in production
 * (github-git.ts: a GitHub App installation). The service (service.ts) speaks only to this interface, so both
 * behave alike: commits are made here, by the server, never by the browser.
 */

/** Who a commit is by: the signed-in admin account's name and e-mail. */
export interface Author {
  name: string;
  email: string;
}

/** A file to write in a commit. */
export interface FileChange {
  path: string;
  content: Uint8Array;
}

/** A request for review of a branch (a pull request on GitHub). */
export interface Review {
  branch: string;
  /** The pull request's number on GitHub; the local store has none. */
  number?: number;
  /** Where a person reads it: the pull request's page on GitHub. */
  url?: string;
}

/** The branch moved since it was read: someone else saved first. Nothing was written. */
export class BranchMovedError extends Error {
  override readonly name = 'BranchMovedError';
}

/** The branch cannot be merged into main without a person deciding between two versions of a file. */
export class MergeConflictError extends Error {
  override readonly name = 'MergeConflictError';
}

/** A commit to make: `changes` on top of `parent`, moving `branch` only from `expected` (undefined: new). */
export interface CommitInput {
  branch: string;
  parent: string;
  expected: string | undefined;
  changes: readonly FileChange[];
  message: string;
  author: Author;
}

/** Where Netlify's build of a commit stands, as Netlify reports it on the commit. */
export interface DeployStatus {
  state: 'building' | 'ready' | 'failed';
  /** The deploy's address (its root), when Netlify gave one. */
  url: string | null;
}

export interface GitProvider {
  /** The branch every piece is published to. */
  readonly main: string;
  /** The commit a branch points at; undefined when there is no such branch. */
  head(branch: string): Promise<string | undefined>;
  /** Every branch whose name starts with `prefix`, with its commit. */
  branches(prefix: string): Promise<Map<string, string>>;
  /** The files under `folders` at `commit`: path → blob id (the blob id changes with every change of content). */
  files(commit: string, folders: readonly string[]): Promise<Map<string, string>>;
  /**
   * For each of `paths`, when the newest commit reachable from `commit` that changed it was made (ISO 8601);
   * a path no commit changed is left out.
   */
  lastChanges(commit: string, paths: readonly string[]): Promise<Map<string, string>>;
  /** The content of blobs by id. */
  blobs(ids: readonly string[]): Promise<Map<string, Uint8Array>>;
  /**
   * Commits `changes` on top of `parent` and moves `branch` to the new commit — only if the branch still
   * points at `expected` (undefined: the branch must not exist yet); otherwise throws {@link BranchMovedError}
   * and writes nothing a branch points at.
   */
  commit(input: CommitInput): Promise<string>;
  /** The open reviews, by branch. */
  reviews(): Promise<Map<string, Review>>;
  /** Opens a review of `branch` into main; an open one is returned as it is. */
  openReview(branch: string, title: string, body: string): Promise<Review>;
  /**
   * Merges `branch` into main with a merge commit by `author`, then removes the branch and closes its review.
   * Throws {@link MergeConflictError} (nothing changed) when the two cannot be merged without a person.
   */
  merge(branch: string, message: string, author: Author): Promise<string>;
  /**
   * The deploy preview Netlify builds of `commit` and reports on it; undefined while it reports none. The
   * local store has no Netlify and leaves this out: its preview is the local server.
   */
  deployStatus?(commit: string): Promise<DeployStatus | undefined>;
}
