/**
 * The production git store (src/server/content/github-git.ts) against recorded GitHub API exchanges: a fetch
 * that answers what GitHub answers to each request and keeps every request it was sent, never the network.
 * The App's own sign-in is real — a JWT signed with a generated key, checked here with jose against the public
 * key — and each request's method, path and body are asserted as GitHub documents them.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Octokit } from '@octokit/core';
import { importSPKI, jwtVerify } from 'jose';
import { beforeEach, describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/server/config.ts';
import { BranchMovedError, MergeConflictError } from '../../src/server/content/git.ts';
import { GitHubGit } from '../../src/server/content/github-git.ts';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});
const ENV = {
  GITHUB_APP_ID: '123456',
  GITHUB_APP_PRIVATE_KEY: privateKey.replace(/\n/g, '\\n'),
  GITHUB_APP_INSTALLATION_ID: '42',
  GITHUB_REPOSITORY: 'korvel/site',
};
const API = 'https://api.github.com';
const REPO = `${API}/repos/korvel/site`;

interface Sent {
  method: string;
  url: string;
  authorization: string;
  body: unknown;
}
type Answer = { status: number; body?: unknown };

let sent: Sent[];
let answers: Map<string, Answer[]>;

/** GitHub's answer to `METHOD url` (queued per request; the last one repeats). */
function answer(method: string, url: string, ...replies: Answer[]) {
  answers.set(`${method} ${url}`, replies);
}

const fakeFetch = async (input: string | URL | Request, init: RequestInit = {}) => {
  // Octokit escapes a ref's slashes in the path (heads%2Fmain), which GitHub reads as the ref itself.
  const url = decodeURIComponent(String(input instanceof Request ? input.url : input));
  const method = init.method ?? 'GET';
  const headers = new Headers(init.headers);
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
  sent.push({ method, url, authorization: headers.get('authorization') ?? '', body });
  const queue = answers.get(`${method} ${url}`);
  if (!queue) return new Response(JSON.stringify({ message: 'Not Found' }), { status: 404 });
  const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
  return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'content-type': 'application/json' },
  });
};

const RecordingOctokit = Octokit.defaults({ request: { fetch: fakeFetch } });
const open = () => GitHubGit.open(ENV, RecordingOctokit);
/** The requests to the repository, without the App's token exchange. */
const repoCalls = () =>
  sent
    .filter((s) => s.url.startsWith(REPO))
    .map(({ method, url, body }) => ({ method, url: url.slice(REPO.length), body }));

beforeEach(() => {
  sent = [];
  answers = new Map();
  answer('POST', `${API}/app/installations/42/access_tokens`, {
    status: 201,
    body: { token: 'ghs_installation', expires_at: new Date(Date.now() + 3600_000).toISOString() },
  });
});

test('without its settings the store is not configured', async () => {
  await expect(GitHubGit.open({ ...ENV, GITHUB_APP_ID: '' }, RecordingOctokit)).rejects.toThrow(ConfigError);
  await expect(GitHubGit.open({ ...ENV, GITHUB_REPOSITORY: 'no-slash' }, RecordingOctokit)).rejects.toThrow(
    ConfigError,
  );
});

test('the App signs in with a JWT of its id, then calls the repository with the installation token', async () => {
  answer('GET', `${REPO}/git/ref/heads/main`, {
    status: 200,
    body: { ref: 'refs/heads/main', object: { sha: 'a1' } },
  });
  const git = await open();
  expect(await git.head('main')).toBe('a1');
  const exchange = sent.find((s) => s.url.endsWith('/access_tokens'))!;
  const jwt = exchange.authorization.replace(/^bearer /i, '');
  const { payload } = await jwtVerify(jwt, await importSPKI(publicKey, 'RS256'));
  expect(payload.iss).toBe('123456');
  expect(sent.at(-1)).toMatchObject({ method: 'GET', authorization: 'token ghs_installation' });
});

describe('reading', () => {
  test('a missing branch is undefined; branches, files and blobs come from the Git Data API', async () => {
    answer('GET', `${REPO}/git/matching-refs/heads/content/`, {
      status: 200,
      body: [{ ref: 'refs/heads/content/blog/gmp', object: { sha: 'b2' } }],
    });
    answer('GET', `${REPO}/git/trees/b2?recursive=1`, {
      status: 200,
      body: {
        truncated: false,
        tree: [
          { path: 'src/content/blog', type: 'tree', sha: 't1' },
          { path: 'src/content/blog/gmp.mdx', type: 'blob', sha: 'f1' },
          { path: 'src/content/blogroll.yaml', type: 'blob', sha: 'f2' },
          { path: 'README.md', type: 'blob', sha: 'f3' },
        ],
      },
    });
    answer('GET', `${REPO}/git/blobs/f1`, {
      status: 200,
      body: { content: Buffer.from('---\n').toString('base64') },
    });
    const git = await open();
    expect(await git.head('content/blog/none')).toBeUndefined();
    expect(await git.branches('content/')).toEqual(new Map([['content/blog/gmp', 'b2']]));
    expect(await git.files('b2', ['src/content/blog'])).toEqual(
      new Map([['src/content/blog/gmp.mdx', 'f1']]),
    );
    const first = await git.blobs(['f1']);
    const again = await git.blobs(['f1']);
    expect(new TextDecoder().decode(first.get('f1'))).toBe('---\n');
    expect(again.get('f1')).toBe(first.get('f1'));
    expect(sent.filter((s) => s.url.endsWith('/git/blobs/f1'))).toHaveLength(1);
  });

  test('when a file last changed: the newest commit on the path', async () => {
    answer('GET', `${REPO}/commits?sha=c9&path=src/content/blog/gmp.mdx&per_page=1`, {
      status: 200,
      body: [{ sha: 'c1', commit: { committer: { date: '2026-11-20T10:00:00Z' } } }],
    });
    const git = await open();
    expect(await git.lastChanges('c9', ['src/content/blog/gmp.mdx'])).toEqual(
      new Map([['src/content/blog/gmp.mdx', '2026-11-20T10:00:00Z']]),
    );
  });
});

describe('saving', () => {
  const change = {
    path: 'src/content/blog/gmp.mdx',
    content: new TextEncoder().encode('---\ntitle: x\n---\n'),
  };
  const author = { name: 'Wren Writer', email: 'writer@korvel.example' };

  function answerCommit() {
    answer('POST', `${REPO}/git/blobs`, { status: 201, body: { sha: 'blob1' } });
    answer('GET', `${REPO}/git/commits/p1`, { status: 200, body: { sha: 'p1', tree: { sha: 'tree0' } } });
    answer('POST', `${REPO}/git/trees`, { status: 201, body: { sha: 'tree1' } });
    answer('POST', `${REPO}/git/commits`, { status: 201, body: { sha: 'c2' } });
  }

  test('a save on an existing branch: blob, tree on the parent’s, commit by the admin, fast-forward only', async () => {
    answerCommit();
    answer('PATCH', `${REPO}/git/refs/heads/content/blog/gmp`, { status: 200, body: {} });
    const git = await open();
    const sha = await git.commit({
      branch: 'content/blog/gmp',
      parent: 'p1',
      expected: 'p1',
      changes: [change],
      message: 'Edit src/content/blog/gmp.mdx',
      author,
    });
    expect(sha).toBe('c2');
    expect(repoCalls()).toEqual([
      {
        method: 'POST',
        url: '/git/blobs',
        body: { content: Buffer.from(change.content).toString('base64'), encoding: 'base64' },
      },
      { method: 'GET', url: '/git/commits/p1', body: undefined },
      {
        method: 'POST',
        url: '/git/trees',
        body: {
          base_tree: 'tree0',
          tree: [{ path: change.path, mode: '100644', type: 'blob', sha: 'blob1' }],
        },
      },
      {
        method: 'POST',
        url: '/git/commits',
        body: { message: 'Edit src/content/blog/gmp.mdx', tree: 'tree1', parents: ['p1'], author },
      },
      { method: 'PATCH', url: '/git/refs/heads/content/blog/gmp', body: { sha: 'c2', force: false } },
    ]);
  });

  test('the first save makes the branch; a branch that moved meanwhile is BranchMovedError', async () => {
    answerCommit();
    answer('POST', `${REPO}/git/refs`, { status: 201, body: {} });
    const git = await open();
    await git.commit({
      branch: 'content/news/x',
      parent: 'p1',
      expected: undefined,
      changes: [change],
      message: 'Start',
      author,
    });
    expect(repoCalls().at(-1)).toEqual({
      method: 'POST',
      url: '/git/refs',
      body: { ref: 'refs/heads/content/news/x', sha: 'c2' },
    });

    answer('PATCH', `${REPO}/git/refs/heads/content/blog/gmp`, {
      status: 422,
      body: { message: 'Update is not a fast forward' },
    });
    await expect(
      git.commit({
        branch: 'content/blog/gmp',
        parent: 'p1',
        expected: 'p1',
        changes: [change],
        message: 'Edit',
        author,
      }),
    ).rejects.toThrow(BranchMovedError);
  });
});

describe('review and publication', () => {
  test('submitting opens a pull request into main once; publishing merges it and removes the branch', async () => {
    answer(
      'GET',
      `${REPO}/pulls?state=open&base=main&per_page=100`,
      { status: 200, body: [] },
      {
        status: 200,
        body: [
          { number: 7, html_url: 'https://github.com/korvel/site/pull/7', head: { ref: 'content/blog/gmp' } },
        ],
      },
    );
    answer('POST', `${REPO}/pulls`, {
      status: 201,
      body: {
        number: 7,
        html_url: 'https://github.com/korvel/site/pull/7',
        head: { ref: 'content/blog/gmp' },
      },
    });
    answer('PUT', `${REPO}/pulls/7/merge`, { status: 200, body: { sha: 'm1', merged: true } });
    answer('DELETE', `${REPO}/git/refs/heads/content/blog/gmp`, { status: 204 });
    const git = await open();
    expect(await git.openReview('content/blog/gmp', 'GMP', 'Submitted by Wren')).toEqual({
      branch: 'content/blog/gmp',
      number: 7,
      url: 'https://github.com/korvel/site/pull/7',
    });
    expect(repoCalls().find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/pulls',
      body: { title: 'GMP', body: 'Submitted by Wren', head: 'content/blog/gmp', base: 'main' },
    });
    // Opened already: the same pull request, no second one.
    await git.openReview('content/blog/gmp', 'GMP', 'again');
    expect(repoCalls().filter((call) => call.method === 'POST')).toHaveLength(1);

    const merged = await git.merge('content/blog/gmp', 'Publish src/content/blog/gmp.mdx', {
      name: 'Olga Owner',
      email: 'owner@korvel.example',
    });
    expect(merged).toBe('m1');
    expect(repoCalls().slice(-2)).toEqual([
      {
        method: 'PUT',
        url: '/pulls/7/merge',
        body: {
          merge_method: 'merge',
          commit_title: 'Publish src/content/blog/gmp.mdx',
          commit_message: "Published by Olga Owner <owner@korvel.example> in the admin's Content tab.",
        },
      },
      { method: 'DELETE', url: '/git/refs/heads/content/blog/gmp', body: undefined },
    ]);
  });

  test('a pull request GitHub cannot merge is MergeConflictError, and the branch stays', async () => {
    answer('GET', `${REPO}/pulls?state=open&base=main&per_page=100`, {
      status: 200,
      body: [
        { number: 8, html_url: 'https://github.com/korvel/site/pull/8', head: { ref: 'content/news/x' } },
      ],
    });
    answer('PUT', `${REPO}/pulls/8/merge`, {
      status: 405,
      body: { message: 'Pull Request is not mergeable' },
    });
    const git = await open();
    await expect(
      git.merge('content/news/x', 'Publish', { name: 'O', email: 'o@korvel.example' }),
    ).rejects.toThrow(MergeConflictError);
    expect(sent.some((s) => s.method === 'DELETE')).toBe(false);
  });
});
