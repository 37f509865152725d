/**
 * Where a writer sees a draft as the site renders it (issue 37, item 5). In production: Netlify's build of the
 * piece's branch — the deploy preview of its pull request once submitted (`deploy-preview-<n>--<site>`),
 * before that the branch deploy (`<branch>--<site>`) — with the state Netlify reports on the branch's head
 * commit. With the local store (dev, the preview, the tests): the piece's page on this server.
 */
import { localePath } from '../../i18n/lang.ts';
import type { DeployStatus, GitProvider } from './git.ts';
import { pieceBranch, type PieceKey } from './pieces.ts';

export type PreviewState = DeployStatus['state'] | 'waiting' | 'local';

export interface Preview {
  /** The piece's page: absolute on Netlify, a path on this server for the local store. */
  url: string;
  /** building, ready or failed as Netlify reports it; waiting while it reports nothing; local: this server. */
  state: PreviewState;
}

/** The piece's address on the site: /blog/<id>, /de/news/<id>. */
export const pagePath = (key: PieceKey) => localePath(key.lang, `/${key.collection}/${key.id}`);

/**
 * The Netlify site's name: SITE_NAME (set by Netlify in builds and functions), else the first label of URL
 * when it is a netlify.app address. Undefined when neither says it.
 */
export function netlifySite(env: NodeJS.ProcessEnv): string | undefined {
  const named = env.SITE_NAME?.trim();
  if (named && /^[a-z0-9-]+$/.test(named)) return named;
  const host = URL.canParse(env.URL ?? '') ? new URL(env.URL!).hostname : '';
  return /^([a-z0-9-]+)\.netlify\.app$/.exec(host)?.[1];
}

/** A branch as Netlify names its deploy's subdomain: lower case, anything else than a letter or digit a hyphen. */
export const branchSlug = (branch: string) =>
  branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The preview of a piece whose changes wait on `branch` at `head` (with the review's number once submitted);
 * null when nothing waits (the piece is as main has it: its page is on the website).
 */
export async function previewOf(
  git: GitProvider,
  key: PieceKey,
  branch: { head: string | undefined; reviewNumber?: number | undefined },
  env: NodeJS.ProcessEnv = process.env,
): Promise<Preview | null> {
  const path = pagePath(key);
  if (!git.deployStatus) return { url: path, state: 'local' };
  if (!branch.head) return null;
  const status = await git.deployStatus(branch.head);
  const site = netlifySite(env);
  const derived =
    site === undefined
      ? null
      : branch.reviewNumber !== undefined
        ? `https://deploy-preview-${branch.reviewNumber}--${site}.netlify.app`
        : `https://${branchSlug(pieceBranch(key))}--${site}.netlify.app`;
  const root = status?.url ?? derived;
  if (!root) return null;
  return { url: new URL(path, root).href, state: status?.state ?? 'waiting' };
}
