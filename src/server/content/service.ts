/**
 * The Content tab's work on the git store (git.ts), whichever implementation it is: the list of pieces with
 * their state, reading a piece at its newest version, saving it to its branch only from the version it was
 * read at, the content linter on a draft, submitting for review and publishing to main.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { z } from 'astro/zod';
import type { ContentProblem } from '../../../scripts/lib/content-lint.ts';
import { articleSchema } from '../../lib/article-schema.ts';
import { validate } from '../../lib/schemas.ts';
import type { Lang } from '../../i18n/lang.ts';
import { germanStart } from '../../lib/translation-start.ts';
import { HttpError } from '../http.ts';
import { codeInBody } from './body-code.ts';
import {
  BranchMovedError,
  MergeConflictError,
  type Author,
  type FileChange,
  type GitProvider,
} from './git.ts';
import {
  COLLECTIONS,
  contentFolder,
  freshYaml,
  frontmatterOf,
  imageFolder,
  joinSource,
  LANGS,
  pieceBranch,
  pieceFile,
  pieceOfBranch,
  pieceOfFile,
  splitSource,
  updateFrontmatter,
  type Frontmatter,
  type PieceKey,
} from './pieces.ts';

export type PieceStatus = 'published' | 'draft' | 'review';

/** A piece as the list shows it. */
export interface PieceSummary extends PieceKey {
  title: string;
  date: string;
  author: string;
  status: PieceStatus;
  /** The branch its unpublished changes wait on, when there are any. */
  branch: string | null;
  /**
   * English pieces: whether the German twin exists (on main or on its branch), and whether the English text
   * changed after the twin last did (the translation may need the change too).
   */
  twin?: { exists: boolean; stale: boolean };
}

/** A piece as the editor opens it. */
export interface Piece {
  frontmatter: Frontmatter;
  body: string;
  /** The file's blob id where it was read: it changes with every saved change. */
  version: string;
  branch: string | null;
  status: PieceStatus;
  review: { url: string | null } | null;
}

export interface Finding {
  /** The line of the file (1 is the opening fence). */
  line: number;
  rule: string;
  message: string;
  fix: string;
  severity: 'error' | 'notice';
  /** Where the editor shows it: the front matter field the line belongs to, or the line of the body. */
  field?: string;
  bodyLine?: number;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();
const notFound = (key: PieceKey) =>
  new HttpError(
    404,
    'not_found',
    `There is no ${key.lang === 'de' ? 'German ' : ''}${key.collection} piece "${key.id}".`,
  );
const conflict = (message: string) => new HttpError(409, 'conflict', message);

/** main's commit, or 503: a store without main cannot serve the tab. */
async function mainHead(git: GitProvider): Promise<string> {
  const head = await git.head(git.main);
  if (!head)
    throw new HttpError(503, 'store_unavailable', `The content repository has no ${git.main} branch.`);
  return head;
}

/** Where a piece is read from: its branch when it has unpublished changes, else main. */
async function whereIs(git: GitProvider, key: PieceKey) {
  const branch = pieceBranch(key);
  const branchHead = await git.head(branch);
  return { branch, branchHead, commit: branchHead ?? (await mainHead(git)) };
}

async function blobText(git: GitProvider, id: string): Promise<string> {
  return decoder.decode((await git.blobs([id])).get(id));
}

const statusOf = (onBranch: boolean, inReview: boolean, frontmatter: Frontmatter): PieceStatus =>
  inReview ? 'review' : onBranch || frontmatter.draft === true ? 'draft' : 'published';

/** Someone a piece can name as its author: a person on the team page. */
export interface AuthorOption {
  id: string;
  name: string;
}

/** The people on main's team page, by name. */
export async function listAuthors(git: GitProvider): Promise<AuthorOption[]> {
  const files = await git.files(await mainHead(git), ['src/content/team']);
  const people = [...files].flatMap(([path, blob]) => {
    const id = /^src\/content\/team\/([\w-]+)\.yaml$/.exec(path)?.[1];
    return id ? [{ id, blob }] : [];
  });
  const texts = await git.blobs(people.map((person) => person.blob));
  return people
    .map(({ id, blob }) => {
      const name = /^name:\s*['"]?(.+?)['"]?\s*$/m.exec(decoder.decode(texts.get(blob)))?.[1];
      return { id, name: name ?? id };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Every article and news item in `langs`, from main and from the branches of unpublished pieces. */
export async function listPieces(git: GitProvider, langs: readonly Lang[] = LANGS): Promise<PieceSummary[]> {
  const main = await mainHead(git);
  const folders = COLLECTIONS.flatMap((c) => LANGS.map((lang) => contentFolder(c, lang)));
  const [onMain, branches, reviews] = await Promise.all([
    git.files(main, folders),
    git.branches('content/'),
    git.reviews(),
  ]);
  // Each piece's newest version: its branch's file where it has one, else main's.
  const newest = new Map<string, { key: PieceKey; blob: string; branch: string | null }>();
  for (const [path, blob] of onMain) {
    const key = pieceOfFile(path);
    if (key) newest.set(path, { key, blob, branch: null });
  }
  for (const [branch, head] of branches) {
    const key = pieceOfBranch(branch);
    if (!key) continue;
    const blob = (await git.files(head, [pieceFile(key)])).get(pieceFile(key));
    if (blob) newest.set(pieceFile(key), { key, blob, branch });
  }
  const texts = await git.blobs([...newest.values()].map((entry) => entry.blob));
  // When each English piece and its twin last changed, one walk of history per commit they are read from.
  const paired = [...newest.values()].filter(
    ({ key }) => key.lang === 'en' && newest.has(pieceFile({ ...key, lang: 'de' })),
  );
  const byCommit = new Map<string, string[]>();
  for (const { key } of paired)
    for (const path of [pieceFile(key), pieceFile({ ...key, lang: 'de' })]) {
      const { branch } = newest.get(path)!;
      const commit = branch ? branches.get(branch)! : main;
      byCommit.set(commit, [...(byCommit.get(commit) ?? []), path]);
    }
  const changed = new Map<string, string>();
  for (const [commit, paths] of byCommit)
    for (const [path, date] of await git.lastChanges(commit, paths)) changed.set(path, date);
  const summaries: PieceSummary[] = [];
  for (const { key, blob, branch } of newest.values()) {
    if (!langs.includes(key.lang)) continue;
    const frontmatter = safeFrontmatter(decoder.decode(texts.get(blob)));
    const twin = pieceFile({ ...key, lang: 'de' });
    const english = changed.get(pieceFile(key));
    const german = changed.get(twin);
    summaries.push({
      ...key,
      title: String(frontmatter.title ?? key.id),
      date: String(frontmatter.date ?? ''),
      author: String(frontmatter.author ?? ''),
      status: statusOf(branch !== null, branch !== null && reviews.has(branch), frontmatter),
      branch,
      ...(key.lang === 'en' && {
        twin: {
          exists: newest.has(twin),
          stale: Boolean(english && german && Date.parse(english) > Date.parse(german)),
        },
      }),
    });
  }
  return summaries.sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
}

/** A broken front matter in the list is shown by its id, not a failed list. */
function safeFrontmatter(text: string): Frontmatter {
  try {
    return frontmatterOf(splitSource(text).yaml);
  } catch {
    return {};
  }
}

/** Where the piece's newest version is (its branch, else main) and its file there. 404 when neither has it. */
export async function locatePiece(git: GitProvider, key: PieceKey) {
  const where = await whereIs(git, key);
  const file = pieceFile(key);
  const blob = (await git.files(where.commit, [file])).get(file);
  if (!blob) throw notFound(key);
  return { ...where, blob };
}

/** The piece at its newest version: its branch, else main. 404 when neither has it. */
export async function readPiece(git: GitProvider, key: PieceKey): Promise<Piece> {
  const { branch, branchHead, blob } = await locatePiece(git, key);
  const source = splitSource(await blobText(git, blob));
  const frontmatter = frontmatterOf(source.yaml);
  const review = branchHead ? (await git.reviews()).get(branch) : undefined;
  return {
    frontmatter,
    body: source.body,
    version: blob,
    branch: branchHead ? branch : null,
    status: statusOf(branchHead !== undefined, review !== undefined, frontmatter),
    review: review ? { url: review.url ?? null } : null,
  };
}

/** What PUT sends: the front matter's fields, the MDX body and the version it was read at (none for a new piece). */
export const saveInput = z.strictObject({
  frontmatter: z.record(z.string(), z.unknown()),
  body: z.string().max(400_000, 'The text is longer than 400 000 characters; split it into two pieces.'),
  version: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/, 'Send the version GET returned.')
    .optional(),
});
export type SaveInput = z.infer<typeof saveInput>;

/**
 * The collection's own schema (src/lib/article-schema.ts) with the repository as the judge: an image must be
 * a file under src/assets in the piece's tree (or one saved with it), an author someone on the team page.
 */
function schemaFor(file: string, tree: Map<string, string>, adding: readonly FileChange[]) {
  const team = new Set(
    [...tree.keys()].flatMap((path) => /^src\/content\/team\/([\w-]+)\.yaml$/.exec(path)?.[1] ?? []),
  );
  const added = new Set(adding.map((change) => change.path));
  return articleSchema({
    image: () =>
      z.string().refine((src) => {
        const path = posix.normalize(posix.join(posix.dirname(file), src));
        return path.startsWith('src/assets/') && (tree.has(path) || added.has(path));
      }, 'Choose an image stored with the site (src/assets); this one is not there.'),
    author: z.string().refine((id) => team.has(id), 'Choose someone on the team page.'),
  });
}

/** The field errors of a front matter, keyed as the form names them (`images.0.alt`). */
export function frontmatterErrors(
  file: string,
  frontmatter: Frontmatter,
  tree: Map<string, string>,
  adding: readonly FileChange[] = [],
): Record<string, string> | undefined {
  const result = validate(schemaFor(file, tree, adding), frontmatter);
  return result.ok ? undefined : result.fields;
}

/**
 * Saves a piece on its branch (made from main on the first save), only from the version it was read at:
 * a stale version, or no version for a piece that exists, is 409 and writes nothing. Saving what is already
 * there writes nothing either. Answers the new version and the branch.
 */
export async function savePiece(
  git: GitProvider,
  key: PieceKey,
  input: SaveInput,
  author: Author,
  adding: readonly FileChange[] = [],
): Promise<{ version: string; branch: string; changed: boolean }> {
  const { branch, branchHead, commit } = await whereIs(git, key);
  const file = pieceFile(key);
  const tree = await git.files(commit, ['src/content/team', 'src/assets', file]);
  const current = tree.get(file);
  if (input.version === undefined && current)
    throw conflict(`A ${key.collection} piece "${key.id}" exists already: open it, or choose another id.`);
  if (input.version !== undefined && current !== input.version)
    throw conflict(
      current
        ? 'Someone saved this piece since you opened it. Your text is kept here: copy it, reload, and apply it again.'
        : 'This piece is no longer there.',
    );
  const fields = frontmatterErrors(file, input.frontmatter, tree, adding);
  if (fields) throw new HttpError(400, 'invalid_frontmatter', 'Some fields need a change.', { fields });
  const code = codeInBody(input.body);
  if (code) throw new HttpError(400, 'invalid_body', code, { fields: { body: code } });

  const original = current ? splitSource(await blobText(git, current)) : undefined;
  const text = joinSource({
    yaml: original ? updateFrontmatter(original.yaml, input.frontmatter) : freshYaml(input.frontmatter),
    body: input.body,
  });
  if (original && text === joinSource(original) && adding.length === 0)
    return { version: current!, branch, changed: false };
  try {
    const head = await git.commit({
      branch,
      parent: commit,
      expected: branchHead,
      changes: [...adding, { path: file, content: encoder.encode(text) }],
      message: `${current ? 'Edit' : 'Start'} ${file}`,
      author,
    });
    const version = (await git.files(head, [file])).get(file)!;
    return { version, branch, changed: true };
  } catch (error) {
    if (error instanceof BranchMovedError)
      throw conflict(
        'Someone saved this piece at the same moment. Your text is kept here: reload and apply it again.',
      );
    throw error;
  }
}

/** What the linter reads besides the piece: the rest of the content, the locales, the pages and the word lists. */
const LINT_FOLDERS = [
  'src/content',
  'src/i18n/locales',
  'src/pages',
  'public',
  'cspell.config.yaml',
  'cspell-words.txt',
  'cspell-words-de.txt',
];
const SNAPSHOT_ROOT = join(tmpdir(), 'korvel-content-lint');
const SNAPSHOT_HOURS = 2;

/** A copy of `commit`'s files the linter reads, in a folder of its own (kept a while: commits do not change). */
async function snapshot(git: GitProvider, commit: string): Promise<string> {
  const dir = join(SNAPSHOT_ROOT, commit);
  if (existsSync(dir)) return dir;
  const files = await git.files(commit, LINT_FOLDERS);
  const blobs = await git.blobs([...files.values()]);
  const aside = `${dir}.${process.pid}.${Date.now()}`;
  mkdirSync(aside, { recursive: true });
  for (const [path, id] of files) {
    mkdirSync(dirname(join(aside, path)), { recursive: true });
    writeFileSync(join(aside, path), blobs.get(id)!);
  }
  // cspell.config.yaml imports its dictionaries as packages: they resolve from the project's node_modules.
  const modules = join(process.cwd(), 'node_modules');
  if (existsSync(modules)) symlinkSync(modules, join(aside, 'node_modules'), 'dir');
  sweepSnapshots();
  if (!existsSync(dir)) renameSync(aside, dir);
  else rmSync(aside, { recursive: true, force: true });
  return dir;
}

function sweepSnapshots(): void {
  if (!existsSync(SNAPSHOT_ROOT)) return;
  const before = Date.now() - SNAPSHOT_HOURS * 3600_000;
  for (const name of readdirSync(SNAPSHOT_ROOT)) {
    const path = join(SNAPSHOT_ROOT, name);
    if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
  }
}

/** A linter problem placed in the editor: in a front matter field, or at a line of the body. */
function findingOf(problem: ContentProblem, yaml: string): Finding {
  const finding: Finding = {
    line: problem.line,
    rule: problem.rule,
    message: problem.message,
    fix: problem.fix,
    severity: problem.notice ? 'notice' : 'error',
  };
  const yamlLines = yaml === '' ? [] : yaml.replace(/\n$/, '').split('\n');
  const bodyStart = yamlLines.length + 3; // the fences take a line each
  if (problem.line >= bodyStart) return { ...finding, bodyLine: problem.line - bodyStart + 1 };
  // Line 2 is the front matter's first: the field is the nearest key at the left margin at or above it.
  const field = yamlLines
    .slice(0, Math.max(0, problem.line - 1))
    .reverse()
    .map((text) => /^([A-Za-z_][\w-]*):/.exec(text)?.[1])
    .find(Boolean);
  return field ? { ...finding, field } : finding;
}

/** The rules of `npm run lint:content` on the piece's newest version, with the lines they concern. */
export async function lintPiece(git: GitProvider, key: PieceKey): Promise<Finding[]> {
  const { commit } = await whereIs(git, key);
  const file = pieceFile(key);
  const blob = (await git.files(commit, [file])).get(file);
  if (!blob) throw notFound(key);
  const { yaml } = splitSource(await blobText(git, blob));
  // Loaded when a piece is checked: the spelling dictionaries are large, and listing or saving needs none.
  const { lintFile } = await import('../../../scripts/lib/content-lint.ts');
  return (await lintFile(await snapshot(git, commit), file)).map((problem) => findingOf(problem, yaml));
}

/** The lint errors of a piece as a 422 body, or undefined when it has none. */
async function lintErrors(git: GitProvider, key: PieceKey) {
  const errors = (await lintPiece(git, key)).filter((finding) => finding.severity === 'error');
  return errors.length > 0 ? errors : undefined;
}

export class LintRefusal extends Error {
  override readonly name = 'LintRefusal';
  readonly findings: Finding[];
  constructor(findings: Finding[]) {
    super(`${findings.length} lint error${findings.length === 1 ? '' : 's'}`);
    this.findings = findings;
  }
}

/** Opens the review of a piece's branch; refused (LintRefusal) while the linter finds errors. */
export async function submitPiece(git: GitProvider, key: PieceKey, author: Author) {
  const branch = pieceBranch(key);
  if (!(await git.head(branch)))
    throw new HttpError(409, 'nothing_to_submit', 'This piece has no saved changes to submit.');
  const errors = await lintErrors(git, key);
  if (errors) throw new LintRefusal(errors);
  const { frontmatter } = await readPiece(git, key);
  const review = await git.openReview(
    branch,
    `${key.lang === 'de' ? '[de] ' : ''}${String(frontmatter.title ?? key.id)}`,
    `${pieceFile(key)}, submitted by ${author.name} <${author.email}> in the admin's Content tab.`,
  );
  return { branch, review: { url: review.url ?? null } };
}

/**
 * Publishes a submitted piece: marks it no longer a draft (a writer who presses Publish means it), checks it
 * once more and merges its branch into main. Answers main's new commit.
 */
export async function publishPiece(
  git: GitProvider,
  key: PieceKey,
  author: Author,
): Promise<{ commit: string }> {
  const branch = pieceBranch(key);
  if (!(await git.head(branch)) || !(await git.reviews()).has(branch))
    throw new HttpError(409, 'not_submitted', 'Submit this piece for review before you publish it.');
  const piece = await readPiece(git, key);
  if (piece.frontmatter.draft === true)
    await savePiece(git, key, { ...piece, frontmatter: { ...piece.frontmatter, draft: false } }, author);
  const errors = await lintErrors(git, key);
  if (errors) throw new LintRefusal(errors);
  try {
    const commit = await git.merge(branch, `Publish ${pieceFile(key)}`, author);
    return { commit };
  } catch (error) {
    if (error instanceof MergeConflictError)
      throw conflict(
        'The published site changed the same lines since this piece was started; ask a developer to merge it.',
      );
    if (error instanceof BranchMovedError)
      throw conflict('Someone changed this piece while it was being published; try again.');
    throw error;
  }
}

/**
 * Starts the German twin of an English piece as `npm run new:article -- --lang de --from` does: the same facts,
 * paths one folder deeper, a draft, on the twin's own branch. Pictures the English piece has only on its
 * branch come along, so the twin shows them too. 409 when the twin exists already.
 */
export async function translatePiece(
  git: GitProvider,
  key: PieceKey,
  author: Author,
): Promise<{ version: string; branch: string }> {
  if (key.lang !== 'en')
    throw new HttpError(400, 'invalid_piece', 'Translate starts from the English piece.');
  const german: PieceKey = { ...key, lang: 'de' };
  const english = await whereIs(git, key);
  const target = await whereIs(git, german);
  const englishFile = pieceFile(key);
  const blob = (await git.files(english.commit, [englishFile])).get(englishFile);
  if (!blob) throw notFound(key);
  if ((await git.files(target.commit, [pieceFile(german)])).has(pieceFile(german)))
    throw conflict('The German version exists already: open it from the list.');
  const folder = imageFolder(key);
  const [theirs, ours] = await Promise.all([
    git.files(english.commit, [folder]),
    git.files(target.commit, [folder]),
  ]);
  const missing = [...theirs].filter(([path]) => !ours.has(path));
  const pictures = await git.blobs(missing.map(([, id]) => id));
  const changes: FileChange[] = [
    ...missing.map(([path, id]) => ({ path, content: pictures.get(id)! })),
    { path: pieceFile(german), content: encoder.encode(germanStart(await blobText(git, blob), englishFile)) },
  ];
  try {
    const head = await git.commit({
      branch: target.branch,
      parent: target.commit,
      expected: target.branchHead,
      changes,
      message: `Start ${pieceFile(german)} from ${englishFile}`,
      author,
    });
    return {
      version: (await git.files(head, [pieceFile(german)])).get(pieceFile(german))!,
      branch: target.branch,
    };
  } catch (error) {
    if (error instanceof BranchMovedError)
      throw conflict('Someone started this translation at the same moment.');
    throw error;
  }
}
