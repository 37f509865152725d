/** GET /api/inquiries: contact messages and meeting requests, newest first. PATCH /api/inquiries/{id}. */
import { inquiryUpdateSchema, validate } from '../lib/schemas.ts';
import { requireAdmin } from './auth.ts';
import { database } from './config.ts';
import { HttpError, json, readJson, type Handler } from './http.ts';
import { onlyParams, paging, rowId } from './query.ts';
import { listInquiries, setInquiryHandled } from './repositories/inquiries.ts';

export const listInquiriesHandler: Handler = async (req) => {
  const db = database();
  await requireAdmin(req, db);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['page', 'pageSize']);
  const { rows, total } = await listInquiries(db, paging(params));
  return json(200, rows, { 'x-total-count': String(total) });
};

// --- PATCH /api/inquiries/{id} (admin): mark as handled or open again -------------------------------------

/** `{"handled": false}` is 19 bytes; the cap leaves room for whitespace and nothing else. */
export const INQUIRY_UPDATE_BODY_LIMIT = 1024;

export const updateInquiryHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db);
  const id = rowId(context.params.id);
  const parsed = validate(inquiryUpdateSchema, await readJson(req, INQUIRY_UPDATE_BODY_LIMIT));
  if (!parsed.ok) {
    throw new HttpError(400, 'validation_failed', 'Send {"handled": true} or {"handled": false}.', {
      fields: parsed.fields,
    });
  }
  const inquiry = await setInquiryHandled(db, id, parsed.data.handled);
  if (!inquiry) throw new HttpError(404, 'not_found', `There is no inquiry with id ${id}.`);
  return json(200, inquiry);
};
