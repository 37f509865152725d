/**
 * /api/content (owners and editors, bearer): articles and news in English and German, edited in the admin's
 * Content tab and stored in git (service.ts). Every save, submission and publication is in the activity log.
 * Publishing is the owner's, and editors' too when the owner allows it (the setting; CONTENT_EDITORS_PUBLISH
 * until the owner first sets it).
 */
import { z } from 'astro/zod';
import { validate } from '../../lib/schemas.ts';
import { requireAdmin, type SignedIn } from '../auth.ts';
import { database } from '../config.ts';
import { HttpError, json, readBytes, readJson, type Handler, type RequestContext } from '../http.ts';
import { onlyParams } from '../query.ts';
import { recordActivity, type ActivityAction } from '../repositories/activity.ts';
import type { Role } from '../repositories/admins.ts';
import { readSetting, writeSetting } from '../repositories/settings.ts';
import type { Author } from './git.ts';
import { addImage, IMAGE_MAX_BYTES, readImage } from './images.ts';
import { pieceKey, LANGS, type PieceKey } from './pieces.ts';
import { previewOf } from './preview.ts';
import {
  lintPiece,
  listAuthors,
  LintRefusal,
  listPieces,
  publishPiece,
  locatePiece,
  readPiece,
  saveInput,
  savePiece,
  submitPiece,
  translatePiece,
} from './service.ts';
import { contentStore } from './store.ts';

/** Who may use the Content tab: the roles that write (auth.ts's ROLES_FOR names the other tabs'). */
export const CONTENT_ROLES = ['owner', 'editor'] as const satisfies readonly Role[];
const SAVE_BODY_LIMIT = 512 * 1024;

/**
 * Whether editors may publish: the owner's setting in the Content tab (admin_settings); until the owner first
 * sets it, CONTENT_EDITORS_PUBLISH=true.
 */
export async function editorsPublish(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await readSetting(database(), 'content_editors_publish')) ?? env.CONTENT_EDITORS_PUBLISH === 'true';
}

/** The roles that may publish: the owner, and editors when the owner has allowed it. */
export const publishRoles = async (env: NodeJS.ProcessEnv = process.env): Promise<readonly Role[]> =>
  (await editorsPublish(env)) ? CONTENT_ROLES : ['owner'];

const authorOf = (admin: SignedIn): Author => ({ name: admin.name || admin.email, email: admin.email });
const targetOf = (key: PieceKey) => `${key.collection}/${key.lang}/${key.id}`;

const log = (admin: SignedIn, action: ActivityAction, key: PieceKey, context: RequestContext) =>
  recordActivity(database(), { actor: admin, action, target: targetOf(key), ip: context.ip });

/** The lint errors that refused a submission or publication, with their lines. */
const refused = (error: LintRefusal) =>
  json(422, {
    error: { code: 'lint_errors', message: 'Fix the errors the check found before you submit.' },
    findings: error.findings,
  });

export const listContent: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), CONTENT_ROLES, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['lang']);
  const lang = params.get('lang');
  if (lang !== null && lang !== 'en' && lang !== 'de')
    throw new HttpError(400, 'invalid_query', '"lang" is en or de.');
  const store = await contentStore();
  const [items, authors] = await Promise.all([
    listPieces(store, lang === null ? LANGS : [lang]),
    listAuthors(store),
  ]);
  const editorsMay = await editorsPublish();
  return json(200, {
    items,
    authors,
    mayPublish: admin.role === 'owner' || editorsMay,
    editorsPublish: editorsMay,
  });
};

export const getPiece: Handler = async (req, context) => {
  await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  return json(200, await readPiece(await contentStore(), key));
};

/** Where the draft is shown as the site renders it, and whether that page is ready (preview.ts); 404 for no piece. */
export const getPreview: Handler = async (req, context) => {
  await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  const git = await contentStore();
  const [{ branch, branchHead }, reviews] = await Promise.all([locatePiece(git, key), git.reviews()]);
  const preview = await previewOf(git, key, { head: branchHead, reviewNumber: reviews.get(branch)?.number });
  return json(200, { preview });
};

export const putPiece: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  const parsed = validate(saveInput, await readJson(req, SAVE_BODY_LIMIT));
  if (!parsed.ok) {
    const { fields } = parsed;
    throw new HttpError(400, 'invalid_body', 'Send frontmatter, body and the version you read.', { fields });
  }
  const saved = await savePiece(await contentStore(), key, parsed.data, authorOf(admin));
  if (saved.changed) await log(admin, 'content.save', key, context);
  return json(200, { version: saved.version, branch: saved.branch });
};

export const getLint: Handler = async (req, context) => {
  await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  return json(200, { findings: await lintPiece(await contentStore(), key) });
};

export const submit: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  try {
    const submitted = await submitPiece(await contentStore(), key, authorOf(admin));
    await log(admin, 'content.submit', key, context);
    return json(200, submitted);
  } catch (error) {
    if (error instanceof LintRefusal) return refused(error);
    throw error;
  }
};

export const publish: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), await publishRoles(), context);
  const key = pieceKey(context.params);
  try {
    const published = await publishPiece(await contentStore(), key, authorOf(admin));
    await log(admin, 'content.publish', key, context);
    return json(200, published);
  } catch (error) {
    if (error instanceof LintRefusal) return refused(error);
    throw error;
  }
};

export const translate: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  const started = await translatePiece(await contentStore(), key, authorOf(admin));
  await log(admin, 'content.translate', { ...key, lang: 'de' }, context);
  return json(200, started);
};

/** POST …/images?name=<file name>: the picture as the body (image/jpeg, image/png, image/webp or image/avif). */
export const uploadImage: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['name']);
  const name = params.get('name') ?? '';
  if (name.length === 0 || name.length > 200)
    throw new HttpError(
      400,
      'invalid_query',
      'Give the picture\'s file name as "name" (at most 200 characters).',
    );
  if (!/^image\/(jpeg|png|webp|avif)$/.test(req.headers.get('content-type') ?? ''))
    throw new HttpError(
      415,
      'unsupported_image',
      'Send a JPEG, PNG, WebP or AVIF image with its content type.',
    );
  const bytes = await readBytes(req, IMAGE_MAX_BYTES);
  const stored = await addImage(await contentStore(), key, name, bytes, authorOf(admin));
  await log(admin, 'content.upload', key, context);
  return json(200, stored);
};

/** GET …/images/{name}: a picture of the piece, for the editor's preview (the admin has no other way to it). */
export const getImage: Handler = async (req, context) => {
  await requireAdmin(req, database(), CONTENT_ROLES, context);
  const key = pieceKey(context.params);
  const image = await readImage(await contentStore(), key, context.params.name ?? '');
  return new Response(new Uint8Array(image.data), {
    status: 200,
    headers: {
      'content-type': image.type,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // An SVG opened on its own must not run anything.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
};

const settingsInput = z.strictObject({ editorsPublish: z.boolean() });

/** PUT /api/content/settings {editorsPublish} (owner): whether editors may publish; logged with who set it. */
export const putSettings: Handler = async (req, context) => {
  const admin = await requireAdmin(req, database(), ['owner'], context);
  const parsed = validate(settingsInput, await readJson(req, 1024));
  if (!parsed.ok) {
    const { fields } = parsed;
    throw new HttpError(400, 'invalid_body', 'Send {"editorsPublish": true} or false.', { fields });
  }
  const value = parsed.data.editorsPublish;
  await writeSetting(database(), 'content_editors_publish', value, admin.id);
  await recordActivity(database(), {
    actor: admin,
    action: 'content.settings',
    target: `editors_publish=${value ? 'on' : 'off'}`,
    ip: context.ip,
  });
  return json(200, { editorsPublish: value });
};
