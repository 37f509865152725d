/** GET /api/activity and GET /api/activity/actions (owner only): the activity log, newest first, in pages. */
import { requireAdmin, ROLES_FOR } from './auth.ts';
import { database } from './config.ts';
import { HttpError, json, type Handler } from './http.ts';
import { onlyParams, paging, rowId } from './query.ts';
import { ACTIVITY_ACTIONS, listActivity, type ActivityAction } from './repositories/activity.ts';

const DEFAULT_PAGE_SIZE = 50;

export const listActivityHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.activity, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['page', 'pageSize', 'action', 'actor']);
  const { page = 1, pageSize = DEFAULT_PAGE_SIZE } = paging(params);
  const action = params.get('action') ?? undefined;
  if (action !== undefined && !ACTIVITY_ACTIONS.includes(action as ActivityAction)) {
    throw new HttpError(
      400,
      'invalid_query',
      '"action" is one of the names GET /api/activity/actions lists.',
    );
  }
  const actor = params.get('actor');
  const { rows, total } = await listActivity(db, {
    page,
    pageSize,
    action,
    actorId: actor === null ? undefined : rowId(actor),
  });
  return json(200, rows, { 'x-total-count': String(total) });
};

export const listActivityActions: Handler = async (req, context) => {
  await requireAdmin(req, database(), ROLES_FOR.activity, context);
  return json(200, ACTIVITY_ACTIONS);
};
