/**
 * The git store of this function instance: the GitHub App's installation on the site's repository when
 * GITHUB_APP_ID is set (production; github-git.ts), else the local repository (local-git.ts: CONTENT_REPO or
 * a throwaway clone under .data). A production deploy without the GitHub settings answers 503 rather than
 * commit to a clone that the next deploy throws away.
 */
import { ConfigError } from '../config.ts';
import { GitHubGit } from './github-git.ts';
import { LocalGit } from './local-git.ts';
import type { GitProvider } from './git.ts';

let current: Promise<GitProvider> | undefined;

function open(env: NodeJS.ProcessEnv): Promise<GitProvider> {
  if (env.GITHUB_APP_ID?.trim()) return GitHubGit.open(env);
  if (env.CONTEXT === 'production' && !env.CONTENT_REPO?.trim())
    return Promise.reject(new ConfigError('GITHUB_APP_ID is not set (docs/editing.md, "One-time set-up")'));
  return LocalGit.open(env);
}

/** The store, opened on first use and then reused. */
export function contentStore(env: NodeJS.ProcessEnv = process.env): Promise<GitProvider> {
  current ??= open(env).catch((error: unknown) => {
    current = undefined;
    throw error;
  });
  return current;
}

/** Tests hand in the store they made (a throwaway clone); undefined opens the configured one again. */
export function useContentStore(store: GitProvider | undefined): void {
  current = store ? Promise.resolve(store) : undefined;
}
