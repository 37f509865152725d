/**
 * The git store of this function instance: the GitHub App's installation on the site's repository in
 * production (GITHUB_APP_ID and the other GITHUB_* settings), else the local repository (local-git.ts).
 */
import { LocalGit } from './local-git.ts';
import type { GitProvider } from './git.ts';

let current: Promise<GitProvider> | undefined;

/** The store, opened on first use and then reused. */
export function contentStore(env: NodeJS.ProcessEnv = process.env): Promise<GitProvider> {
  current ??= LocalGit.open(env).catch((error: unknown) => {
    current = undefined;
    throw error;
  });
  return current;
}

/** Tests hand in the store they made (a throwaway clone); undefined opens the configured one again. */
export function useContentStore(store: GitProvider | undefined): void {
  current = store ? Promise.resolve(store) : undefined;
}
