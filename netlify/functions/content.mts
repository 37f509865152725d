/**
 * Articles and news in the admin's Content tab (owners and editors, bearer; issue 37):
 * GET  /api/content?lang=en|de → 200 {items: [{collection, lang, id, title, date, status, author, branch, twin}],
 *      authors, mayPublish, editorsPublish}
 * PUT  /api/content/settings {editorsPublish} (owner) → 200 {editorsPublish}: whether editors may publish
 * GET  /api/content/{collection}/{lang}/{id} → 200 {frontmatter, body, version, branch, status, review}
 * PUT  /api/content/{collection}/{lang}/{id} {frontmatter, body, version?} → 200 {version, branch}; 409 stale
 *      version; 400 with `fields` for front matter the collection's schema refuses
 * GET  /api/content/{collection}/{lang}/{id}/preview → 200 {preview: {url, state} | null}: the draft's page
 *      (Netlify's deploy preview in production, building | ready | failed | waiting; local: this server's page)
 * GET  /api/content/{collection}/{lang}/{id}/lint → 200 {findings: [{line, rule, message, fix, severity}]}
 * POST /api/content/{collection}/{lang}/{id}/submit → 200 {branch, review}; 422 {error, findings} lint errors
 * POST /api/content/{collection}/{lang}/{id}/publish (owner) → 200 {commit}
 * POST /api/content/{collection}/en/{id}/translate → 200 {version, branch}: the German twin started
 * POST /api/content/{collection}/{lang}/{id}/images?name= (the picture as the body) → 200 {src, path, width, height}
 * GET  /api/content/{collection}/{lang}/{id}/images/{name} → the picture, for the editor's preview
 */
import type { Config } from '@netlify/functions';
import { routes } from '../../src/server/http.ts';
import * as content from '../../src/server/content/handlers.ts';

const piece = '/api/content/:collection/:lang/:id';
const table = {
  '/api/content': { GET: content.listContent },
  '/api/content/settings': { PUT: content.putSettings },
  [piece]: { GET: content.getPiece, PUT: content.putPiece },
  [`${piece}/preview`]: { GET: content.getPreview },
  [`${piece}/lint`]: { GET: content.getLint },
  [`${piece}/submit`]: { POST: content.submit },
  [`${piece}/publish`]: { POST: content.publish },
  [`${piece}/translate`]: { POST: content.translate },
  [`${piece}/images`]: { POST: content.uploadImage },
  [`${piece}/images/:name`]: { GET: content.getImage },
};

export default routes('content', table);

// Netlify reads `config` statically: the paths are written out, in the table's order.
export const config: Config = {
  path: [
    '/api/content',
    '/api/content/settings',
    '/api/content/:collection/:lang/:id',
    '/api/content/:collection/:lang/:id/preview',
    '/api/content/:collection/:lang/:id/lint',
    '/api/content/:collection/:lang/:id/submit',
    '/api/content/:collection/:lang/:id/publish',
    '/api/content/:collection/:lang/:id/translate',
    '/api/content/:collection/:lang/:id/images',
    '/api/content/:collection/:lang/:id/images/:name',
  ],
};
