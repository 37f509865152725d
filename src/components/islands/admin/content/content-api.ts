/** The Content tab's calls (/api/content, netlify/functions/content.mts); shapes as the server defines them. */
import type { Lang } from '../../../../i18n/lang.ts';
import type { Frontmatter } from '../../../../server/content/pieces.ts';
import type { Preview } from '../../../../server/content/preview.ts';
import type { AuthorOption, Finding, Piece, PieceSummary } from '../../../../server/content/service.ts';
import { ApiError, call } from '../api.ts';

export type { AuthorOption, Finding, Frontmatter, Piece, PieceSummary, Preview };
export type Collection = PieceSummary['collection'];

/** Which piece: a collection, a language and an id. */
export interface PieceRef {
  collection: Collection;
  lang: Lang;
  id: string;
}

/** What the editor opens: a piece that exists, or a new one of a collection. */
export type Opening =
  { ref: PieceRef; isNew: false } | { ref: Omit<PieceRef, 'id'> & { id: '' }; isNew: true };

export interface ContentList {
  items: PieceSummary[];
  authors: AuthorOption[];
  mayPublish: boolean;
  /** The owner's setting: whether editors may publish too. */
  editorsPublish: boolean;
}

const pathOf = (ref: PieceRef) => `/api/content/${ref.collection}/${ref.lang}/${ref.id}`;

export async function fetchContent(token: string, signal?: AbortSignal): Promise<ContentList> {
  return (await call('/api/content', { token, signal })).json() as Promise<ContentList>;
}

export async function fetchPiece(token: string, ref: PieceRef, signal?: AbortSignal): Promise<Piece> {
  return (await call(pathOf(ref), { token, signal })).json() as Promise<Piece>;
}

/** Saves; 409 `conflict` when someone saved first, 400 with `fields` for front matter the schema refuses. */
export async function savePiece(
  token: string,
  ref: PieceRef,
  input: { frontmatter: Frontmatter; body: string; version?: string },
): Promise<{ version: string; branch: string }> {
  return (await call(pathOf(ref), { method: 'PUT', token, json: input })).json() as Promise<{
    version: string;
    branch: string;
  }>;
}

/** The owner's setting: whether editors may publish too (PUT /api/content/settings, owner only). */
export async function saveEditorsPublish(token: string, editorsPublish: boolean): Promise<boolean> {
  const saved = await call('/api/content/settings', { method: 'PUT', token, json: { editorsPublish } });
  return ((await saved.json()) as { editorsPublish: boolean }).editorsPublish;
}

/** Where the draft is shown as the site renders it, and whether that page is ready; null when nothing waits. */
export async function fetchPreview(
  token: string,
  ref: PieceRef,
  signal?: AbortSignal,
): Promise<Preview | null> {
  return (
    (await (await call(`${pathOf(ref)}/preview`, { token, signal })).json()) as { preview: Preview | null }
  ).preview;
}

export async function lintPiece(token: string, ref: PieceRef): Promise<Finding[]> {
  return ((await (await call(`${pathOf(ref)}/lint`, { token })).json()) as { findings: Finding[] }).findings;
}

/** Opens the review; 422 while the check finds errors, 409 `nothing_to_submit` before the first save. */
export async function submitPiece(token: string, ref: PieceRef): Promise<void> {
  await call(`${pathOf(ref)}/submit`, { method: 'POST', token });
}

/** Starts the German twin of an English piece on its own branch. */
export async function translatePiece(token: string, ref: PieceRef): Promise<void> {
  await call(`${pathOf(ref)}/translate`, { method: 'POST', token });
}

/** Stores a picture beside the piece; answers the path its front matter or text uses. */
export async function uploadImage(token: string, ref: PieceRef, file: File): Promise<{ src: string }> {
  let response: Response;
  try {
    response = await fetch(`${pathOf(ref)}/images?${new URLSearchParams({ name: file.name })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': file.type, accept: 'application/json' },
      body: file,
      cache: 'no-store',
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0);
  }
  if (!response.ok) throw new ApiError(response.status);
  return response.json() as Promise<{ src: string }>;
}

/**
 * A picture of the piece as a data: URL the editor can show (the admin's CSP allows data: images, and the
 * picture needs the bearer token). A path outside the piece's folder is shown as it is.
 */
export async function fetchImage(token: string, ref: PieceRef, src: string): Promise<string> {
  const name = src.split('/').pop() ?? '';
  if (!src.includes(`/${ref.id}/`) || !name) return src;
  const response = await call(`${pathOf(ref)}/images/${encodeURIComponent(name)}`, { token });
  const blob = await response.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new ApiError(0));
    reader.readAsDataURL(blob);
  });
}

export async function publishPiece(token: string, ref: PieceRef): Promise<{ commit: string }> {
  return (await call(`${pathOf(ref)}/publish`, { method: 'POST', token })).json() as Promise<{
    commit: string;
  }>;
}

export const isLintRefusal = (error: unknown) => error instanceof ApiError && error.status === 422;
