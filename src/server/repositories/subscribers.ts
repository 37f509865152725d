import type { Queryable } from '../db/index.ts';

/** What the admin list shows; `created_temp` is null for rows imported without a date. */
export interface Subscriber {
  id: number;
  email: string;
  created_temp: string | null;
}

export const SUBSCRIBER_SORTS = ['id', '-id', 'email', '-email', 'created_temp', '-created_temp'] as const;
export type SubscriberSort = (typeof SUBSCRIBER_SORTS)[number];

// Fixed SQL per sort key: the client picks from this table, it never supplies SQL.
const ORDER_BY: Record<SubscriberSort, string> = {
  id: 'id ASC',
  '-id': 'id DESC',
  email: 'lower(email) ASC, id ASC',
  '-email': 'lower(email) DESC, id DESC',
  created_temp: 'created_at ASC NULLS FIRST, id ASC',
  '-created_temp': 'created_at DESC NULLS LAST, id DESC',
};

export interface SubscriberQuery {
  /** Case-insensitive substring of the e-mail address. */
  q?: string;
  sort?: SubscriberSort;
  /** 1-based; with `pageSize`, one page. Without both, every row. */
  page?: number;
  pageSize?: number;
}

/** `%`, `_` and `\` match literally in the search text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface SubscriberRow extends Record<string, unknown> {
  id: number;
  email: string;
  created_at: Date | null;
}

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  created_temp: row.created_at ? new Date(row.created_at).toISOString() : null,
});

export async function listSubscribers(
  db: Queryable,
  query: SubscriberQuery = {},
): Promise<{ rows: Subscriber[]; total: number }> {
  const where = query.q ? `WHERE email ILIKE $1 ESCAPE '\\'` : '';
  const filter = query.q ? [likePattern(query.q)] : [];
  const order = ORDER_BY[query.sort ?? 'id'];
  if (query.page === undefined && query.pageSize === undefined) {
    const rows = await db.query<SubscriberRow>(
      `SELECT id, email, created_at FROM subscribers ${where} ORDER BY ${order}`,
      filter,
    );
    return { rows: rows.map(toSubscriber), total: rows.length };
  }
  const pageSize = query.pageSize ?? 50;
  const offset = ((query.page ?? 1) - 1) * pageSize;
  const n = filter.length;
  const rows = await db.query<SubscriberRow & { total: number }>(
    `SELECT id, email, created_at, count(*) OVER ()::int AS total FROM subscribers ${where}
     ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...filter, pageSize, offset],
  );
  // Past the last page the window function has no row to report on; count separately.
  const total =
    rows[0]?.total ??
    (await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM subscribers ${where}`, filter))[0]!
      .total;
  return { rows: rows.map(toSubscriber), total };
}

/**
 * Adds an address unless it is already on the list in any letter case. Concurrent sign-ups of one address
 * meet at the unique index on lower(email), so exactly one row is written.
 * @returns whether a row was inserted (never shown to the visitor: the reply is the same either way).
 */
export async function addSubscriber(
  db: Queryable,
  entry: { email: string; consentVersion: string; sourcePage: string },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO subscribers (email, consent_version, source_page) VALUES ($1, $2, $3)
     ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
    [entry.email, entry.consentVersion, entry.sourcePage],
  );
  return rows.length === 1;
}

/** @returns false when no row had this id (already deleted, or never existed). */
export async function deleteSubscriber(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query('DELETE FROM subscribers WHERE id = $1 RETURNING id', [id]);
  return rows.length === 1;
}
