/**
 * Pictures for a piece: decoded and written again by sharp on the server (which also drops camera metadata
 * such as a GPS position), stored beside the piece's other images under a name made of the file's name and a
 * hash of its content. So a name is never reused for another picture, an upload never renames or overwrites
 * a file, and nothing here deletes one: a picture the German twin or another page uses stays where it is.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { slugify } from '../../lib/slug.ts';
import { HttpError } from '../http.ts';
import { BranchMovedError, type Author, type GitProvider } from './git.ts';
import { imageFolder, pieceBranch, pieceFile, type PieceKey } from './pieces.ts';

/** The largest picture accepted, in bytes: a photograph from a phone fits, a scan of a poster does not. */
export const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Pixels either way: larger pictures are refused before they are decoded in full. */
const MAX_SIDE = 8000;

/** The formats accepted, with the extension the stored file gets. SVG is not: it can carry script. */
const FORMATS = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' } as const;
type Format = keyof typeof FORMATS;

const refuse = (message: string) => new HttpError(415, 'unsupported_image', message);

/** A file name's stem as a slug: "Tablet Press (2).JPG" → "tablet-press-2". */
export function stemOf(name: string): string {
  return slugify(name.replace(/\.[^.]*$/, ''), 40) || 'image';
}

/** The picture decoded and written again in its own format; 415 for anything sharp cannot read as one. */
export async function cleanImage(
  bytes: Uint8Array,
): Promise<{ data: Buffer; ext: string; width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: MAX_SIDE * MAX_SIDE }).metadata();
  } catch {
    throw refuse('This file is not a picture the site can use: send a JPEG, PNG, WebP or AVIF image.');
  }
  const { format, width = 0, height = 0 } = metadata;
  if (!format || !(format in FORMATS))
    throw refuse('Send a JPEG, PNG, WebP or AVIF image (drawings in SVG are added by a developer).');
  if (width > MAX_SIDE || height > MAX_SIDE)
    throw refuse(`The picture is larger than ${MAX_SIDE} pixels on a side; make it smaller first.`);
  try {
    // rotate() applies the camera's orientation before the metadata that carried it is dropped.
    const data = await sharp(bytes, { limitInputPixels: MAX_SIDE * MAX_SIDE })
      .rotate()
      .toFormat(format as Format, format === 'jpeg' ? { quality: 88, mozjpeg: true } : {})
      .toBuffer();
    return { data, ext: FORMATS[format as Format], width, height };
  } catch {
    throw refuse('The picture could not be read to the end; it may be damaged.');
  }
}

/** The path of a stored picture as the piece's file refers to it (German files sit one folder deeper). */
export const srcFor = (key: PieceKey, path: string) => posix.relative(posix.dirname(pieceFile(key)), path);

/**
 * Stores a picture for a piece on the piece's branch (made from main when it has none yet): a new file, or
 * the one already there with the same content. Answers the path for the piece's front matter or body.
 */
export async function addImage(
  git: GitProvider,
  key: PieceKey,
  name: string,
  bytes: Uint8Array,
  author: Author,
): Promise<{ src: string; path: string; width: number; height: number }> {
  const image = await cleanImage(bytes);
  const hash = createHash('sha256').update(image.data).digest('hex').slice(0, 10);
  const path = `${imageFolder(key)}/${stemOf(name)}-${hash}.${image.ext}`;
  const branch = pieceBranch(key);
  const branchHead = await git.head(branch);
  const parent = branchHead ?? (await git.head(git.main));
  if (!parent) throw new HttpError(503, 'store_unavailable', 'The content repository has no main branch.');
  const stored = { src: srcFor(key, path), path, width: image.width, height: image.height };
  if ((await git.files(parent, [path])).has(path)) return stored;
  try {
    await git.commit({
      branch,
      parent,
      expected: branchHead,
      changes: [{ path, content: image.data }],
      message: `Add ${path}`,
      author,
    });
  } catch (error) {
    if (error instanceof BranchMovedError)
      throw new HttpError(
        409,
        'conflict',
        'Someone saved this piece at the same moment; add the picture again.',
      );
    throw error;
  }
  return stored;
}

/** A picture of the piece's image folder as its newest version has it, for the editor to show. */
export async function readImage(
  git: GitProvider,
  key: PieceKey,
  name: string,
): Promise<{ data: Uint8Array; type: string }> {
  if (!/^[a-z0-9][a-z0-9._-]{0,80}\.(svg|png|jpe?g|webp|avif|gif)$/.test(name) || name.includes('..'))
    throw new HttpError(400, 'invalid_image_name', 'Name a picture of this piece by its file name.');
  const path = `${imageFolder(key)}/${name}`;
  // The piece's branch, its twin's (a picture added in English before the translation) and main, in turn.
  const twin: PieceKey = { ...key, lang: key.lang === 'en' ? 'de' : 'en' };
  let blob: string | undefined;
  for (const branch of [pieceBranch(key), pieceBranch(twin), git.main]) {
    const commit = await git.head(branch);
    blob = commit ? (await git.files(commit, [path])).get(path) : undefined;
    if (blob) break;
  }
  if (!blob) throw new HttpError(404, 'not_found', 'There is no such picture for this piece.');
  const ext = name.split('.').pop()!;
  const type = ext === 'svg' ? 'image/svg+xml' : ext === 'jpg' ? 'image/jpeg' : `image/${ext}`;
  return { data: (await git.blobs([blob])).get(blob)!, type };
}
