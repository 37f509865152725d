/**
 * The draft's preview (src/server/content/preview.ts) against the shapes GitHub answers: the combined status
 * of the branch's head commit with the status Netlify posts (`netlify/<site>/deploy-preview`), pending while it
 * builds (its link then is the deploy log), success with the deploy preview's address, failure. The local
 * store's preview is the page on this server (tests/api/content.test.ts, "the draft's preview").
 */
import { describe, expect, test } from 'vitest';
import { GitHubGit, type GitHubClient } from '../../src/server/content/github-git.ts';
import { LocalGit } from '../../src/server/content/local-git.ts';
import { branchSlug, netlifySite, previewOf } from '../../src/server/content/preview.ts';

const HEAD = '7d1c0a4e2b9f8c3d5a6e1f0b2c4d6e8f0a1b3c5d';
const gmp = { collection: 'blog', lang: 'en', id: 'gmp' } as const;
const ENV = { SITE_NAME: 'korvel', URL: 'https://www.korvel.example' };

/** GET /repos/korvel/site/commits/{sha}/status as GitHub answers it, trimmed to the fields that matter. */
const combined = (statuses: { state: string; target_url: string | null; context: string }[]) => ({
  state: statuses[0]?.state ?? 'pending',
  sha: HEAD,
  total_count: statuses.length,
  statuses: statuses.map((status, i) => ({
    id: 1000 + i,
    description: 'Deploy Preview',
    created_at: '2026-11-28T15:00:00Z',
    updated_at: '2026-11-28T15:01:00Z',
    ...status,
  })),
});
const building = combined([
  { state: 'success', target_url: 'https://ci.example/run/1', context: 'ci/lint' },
  {
    state: 'pending',
    target_url: 'https://app.netlify.com/sites/korvel/deploys/6565f0c1d2e3',
    context: 'netlify/korvel/deploy-preview',
  },
]);
const ready = combined([
  {
    state: 'success',
    target_url: 'https://deploy-preview-42--korvel.netlify.app',
    context: 'netlify/korvel/deploy-preview',
  },
]);
const failed = combined([
  {
    state: 'failure',
    target_url: 'https://app.netlify.com/sites/korvel/deploys/6565f0c1d2e3',
    context: 'netlify/korvel/deploy-preview',
  },
]);

/** A GitHub store whose client answers the status request with `data` and records what it was asked. */
function storeAnswering(data: unknown) {
  const asked: { route: string; parameters: Record<string, unknown> }[] = [];
  const client: GitHubClient = {
    request: async (route, parameters = {}) => {
      asked.push({ route, parameters });
      return { status: 200, data };
    },
  };
  return { git: new GitHubGit(client, 'korvel/site'), asked };
}

describe('GitHubGit.deployStatus', () => {
  test('asks for the combined status of the commit', async () => {
    const { git, asked } = storeAnswering(ready);
    await git.deployStatus(HEAD);
    expect(asked).toEqual([
      {
        route: 'GET /repos/{owner}/{repo}/commits/{ref}/status',
        parameters: { owner: 'korvel', repo: 'site', ref: HEAD },
      },
    ]);
  });

  test('pending is building, without the deploy log as the preview’s address', async () => {
    expect(await storeAnswering(building).git.deployStatus(HEAD)).toEqual({ state: 'building', url: null });
  });

  test('success is ready, at the deploy preview’s address', async () => {
    expect(await storeAnswering(ready).git.deployStatus(HEAD)).toEqual({
      state: 'ready',
      url: 'https://deploy-preview-42--korvel.netlify.app',
    });
  });

  test('failure is failed', async () => {
    expect((await storeAnswering(failed).git.deployStatus(HEAD))?.state).toBe('failed');
  });

  test('no status of Netlify’s yet is undefined', async () => {
    expect(await storeAnswering(combined([])).git.deployStatus(HEAD)).toBeUndefined();
  });
});

describe('previewOf', () => {
  test('ready: the piece’s page on the deploy preview', async () => {
    const { git } = storeAnswering(ready);
    expect(await previewOf(git, gmp, { head: HEAD, reviewNumber: 42 }, ENV)).toEqual({
      url: 'https://deploy-preview-42--korvel.netlify.app/blog/gmp',
      state: 'ready',
    });
  });

  test('building, submitted: the deploy preview of the pull request, in the piece’s language', async () => {
    const { git } = storeAnswering(building);
    expect(await previewOf(git, { ...gmp, lang: 'de' }, { head: HEAD, reviewNumber: 42 }, ENV)).toEqual({
      url: 'https://deploy-preview-42--korvel.netlify.app/de/blog/gmp',
      state: 'building',
    });
  });

  test('saved, not submitted, nothing reported yet: the branch deploy, waiting', async () => {
    const { git } = storeAnswering(combined([]));
    expect(await previewOf(git, gmp, { head: HEAD }, ENV)).toEqual({
      url: 'https://content-blog-gmp--korvel.netlify.app/blog/gmp',
      state: 'waiting',
    });
  });

  test('nothing waiting on a branch: no preview (the page is on the website)', async () => {
    const { git, asked } = storeAnswering(ready);
    expect(await previewOf(git, gmp, { head: undefined }, ENV)).toBeNull();
    expect(asked).toEqual([]);
  });

  test('the local store: the page on this server', async () => {
    const local = new LocalGit('/nowhere.git');
    expect(await previewOf(local, { ...gmp, collection: 'news', lang: 'de' }, { head: HEAD }, {})).toEqual({
      url: '/de/news/gmp',
      state: 'local',
    });
  });
});

describe('the Netlify site and branch names', () => {
  test('SITE_NAME, else a netlify.app URL; nothing else guessed', () => {
    expect(netlifySite({ SITE_NAME: 'korvel' })).toBe('korvel');
    expect(netlifySite({ URL: 'https://korvel-site.netlify.app' })).toBe('korvel-site');
    expect(netlifySite({ URL: 'https://www.korvel.example' })).toBeUndefined();
    expect(netlifySite({ SITE_NAME: 'Not a name/..' })).toBeUndefined();
  });

  test('a branch as Netlify’s subdomain writes it', () => {
    expect(branchSlug('content/de/blog/gmp')).toBe('content-de-blog-gmp');
  });
});
