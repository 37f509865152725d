/**
 * What the Content tab edits and where it lives in the repository: articles (`blog`) and news items in English
 * and German, one MDX file each, their images under src/assets, and the branch each piece's changes wait on.
 * Everything here is pure: names and paths are checked before any of them reaches git.
 */
import { Document, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Lang } from '../../i18n/lang.ts';
import { HttpError } from '../http.ts';

/** The collections the Content tab edits, with the folder their images live in (src/assets/<folder>/<id>/). */
export const EDITABLE = { blog: 'articles', news: 'news' } as const;
export type Collection = keyof typeof EDITABLE;
export const COLLECTIONS = Object.keys(EDITABLE) as Collection[];
export const LANGS = ['en', 'de'] as const satisfies readonly Lang[];

/** One piece: a collection, a language and an id (the file name without `.mdx`). */
export interface PieceKey {
  collection: Collection;
  lang: Lang;
  id: string;
}

/** A plain slug: lower-case letters and digits joined by single hyphens, as `npm run new:article` makes them. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 80;

const badPiece = (message: string) => new HttpError(400, 'invalid_piece', message);

/**
 * The piece a request names, or 400 `invalid_piece`: only the editable collections, `en` or `de`, and a
 * plain slug, so no value can reach outside the content folders (`..`, `/`, `%2F`, NUL, upper case).
 */
export function pieceKey(params: Record<string, string | undefined>): PieceKey {
  const { collection, lang, id } = params;
  if (!collection || !COLLECTIONS.includes(collection as Collection))
    throw badPiece(`The collection is one of ${COLLECTIONS.join(', ')}.`);
  if (lang !== 'en' && lang !== 'de') throw badPiece('The language is en or de.');
  if (!id || id.length > SLUG_MAX || !SLUG.test(id))
    throw badPiece(
      `The id is a plain slug of at most ${SLUG_MAX} characters: lower-case letters and digits joined by hyphens.`,
    );
  return { collection: collection as Collection, lang, id };
}

/** The folder of a language's entries of a collection: src/content/blog, src/content/de/blog. */
export const contentFolder = (collection: Collection, lang: Lang) =>
  lang === 'en' ? `src/content/${collection}` : `src/content/${lang}/${collection}`;

/** The piece's MDX file in the repository. */
export const pieceFile = (key: PieceKey) => `${contentFolder(key.collection, key.lang)}/${key.id}.mdx`;

/** The folder of the piece's images, shared by the English piece and its German twin. */
export const imageFolder = (key: Pick<PieceKey, 'collection' | 'id'>) =>
  `src/assets/${EDITABLE[key.collection]}/${key.id}`;

/**
 * The branch a piece's unpublished changes wait on: `content/<collection>/<id>` for English,
 * `content/de/<collection>/<id>` for German (a folder name no collection can take).
 */
export const pieceBranch = (key: PieceKey) =>
  key.lang === 'en'
    ? `content/${key.collection}/${key.id}`
    : `content/${key.lang}/${key.collection}/${key.id}`;

/** The piece a file path names, or undefined for any other file. */
export function pieceOfFile(path: string): PieceKey | undefined {
  const match = /^src\/content\/(?:(de)\/)?(blog|news)\/([a-z0-9-]+)\.mdx$/.exec(path);
  if (!match || !SLUG.test(match[3]!)) return undefined;
  return { lang: (match[1] ?? 'en') as Lang, collection: match[2] as Collection, id: match[3]! };
}

/** The piece a branch name names, or undefined. */
export function pieceOfBranch(branch: string): PieceKey | undefined {
  const match = /^content\/(?:(de)\/)?(blog|news)\/([a-z0-9-]+)$/.exec(branch);
  if (!match || !SLUG.test(match[3]!)) return undefined;
  return { lang: (match[1] ?? 'en') as Lang, collection: match[2] as Collection, id: match[3]! };
}

/** An MDX file cut into its front matter (the YAML between the fences) and its body (everything after them). */
export interface Source {
  yaml: string;
  body: string;
}

const FENCES = /^---\n([\s\S]*?\n)?---\n/;

/** Cuts an MDX file at its front matter fences; a file without them is all body. */
export function splitSource(text: string): Source {
  const match = FENCES.exec(text);
  if (!match) return { yaml: '', body: text };
  return { yaml: match[1] ?? '', body: text.slice(match[0].length) };
}

/** The file for a front matter text and a body. */
export const joinSource = ({ yaml, body }: Source) => `---\n${yaml}---\n${body}`;

/** Front matter as the API carries it: the YAML's plain data (dates stay `YYYY-MM-DD` strings). */
export type Frontmatter = Record<string, unknown>;

const TO_STRING = { lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false } as const;

/** The front matter's data; a YAML error is a 400 naming its line (the source view can send anything). */
export function frontmatterOf(yaml: string): Frontmatter {
  const doc = parseDocument(yaml);
  if (doc.errors.length > 0)
    throw new HttpError(
      400,
      'invalid_frontmatter',
      `The front matter is not valid YAML: ${doc.errors[0]!.message}`,
    );
  const data: unknown = doc.toJS();
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Frontmatter) : {};
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The front matter text for `data`, changing only what changed: a field whose value is unchanged keeps its
 * text, quotes and comments, so saving an unchanged piece writes the same bytes and a changed one shows a
 * diff of the fields that changed. New fields follow the existing ones; lists of words (`divisions`, `tags`)
 * are written in brackets as `npm run new:article` writes them.
 */
export function updateFrontmatter(original: string, data: Frontmatter): string {
  const doc = parseDocument(original);
  const current = (doc.toJS() ?? {}) as Frontmatter;
  if (same(current, data)) return original;
  if (!isMap(doc.contents)) return freshYaml(data);
  for (const pair of [...doc.contents.items]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key !== undefined && !(key in data)) doc.delete(key);
  }
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || same(current[key], value)) continue;
    doc.set(key, nodeFor(doc, value));
  }
  return doc.toString(TO_STRING);
}

/** A YAML node for a value in the house's style: words in brackets, text in single quotes. */
function nodeFor(doc: Document, value: unknown) {
  const node = doc.createNode(value);
  if (isSeq(node) && node.items.every((item) => isScalar(item) && typeof item.value === 'string'))
    node.flow = true;
  quoteText(node);
  return node;
}

function quoteText(node: unknown): void {
  if (
    isScalar(node) &&
    typeof node.value === 'string' &&
    !/^(\d{4}-\d{2}-\d{2}|[a-z0-9-]+)$/.test(node.value)
  )
    node.type = 'QUOTE_SINGLE';
  if (isSeq(node)) for (const item of node.items) if (!node.flow) quoteText(item);
  if (isMap(node)) for (const pair of node.items) quoteText(pair.value);
}

/** The front matter text of a new piece. */
export function freshYaml(data: Frontmatter): string {
  const doc = new Document({});
  for (const [key, value] of Object.entries(data)) if (value !== undefined) doc.set(key, nodeFor(doc, value));
  return doc.toString(TO_STRING);
}
