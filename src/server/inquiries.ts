/** GET /api/inquiries: contact messages and meeting requests, newest first. */
import { requireAdmin } from './auth.ts';
import { database } from './config.ts';
import { json, type Handler } from './http.ts';
import { onlyParams, paging } from './query.ts';
import { listInquiries } from './repositories/inquiries.ts';

export const listInquiriesHandler: Handler = async (req) => {
  const db = database();
  await requireAdmin(req, db);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['page', 'pageSize']);
  const { rows, total } = await listInquiries(db, paging(params));
  return json(200, rows, { 'x-total-count': String(total) });
};
