import type { Queryable } from '../db/index.ts';

export interface Inquiry {
  id: number;
  kind: 'contact' | 'meeting';
  fullName: string;
  company: string | null;
  email: string;
  position: string | null;
  phone: string | null;
  subject: string | null;
  message: string | null;
  meetingStart: string | null;
  sourcePage: string | null;
  createdAt: string;
  handledAt: string | null;
}

interface InquiryRow extends Record<string, unknown> {
  id: number;
  kind: 'contact' | 'meeting';
  full_name: string;
  company: string | null;
  email: string;
  position: string | null;
  phone: string | null;
  subject: string | null;
  message: string | null;
  meeting_start: Date | null;
  source_page: string | null;
  created_at: Date;
  handled_at: Date | null;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const toInquiry = (row: InquiryRow): Inquiry => ({
  id: row.id,
  kind: row.kind,
  fullName: row.full_name,
  company: row.company,
  email: row.email,
  position: row.position,
  phone: row.phone,
  subject: row.subject,
  message: row.message,
  meetingStart: iso(row.meeting_start),
  sourcePage: row.source_page,
  createdAt: iso(row.created_at)!,
  handledAt: iso(row.handled_at),
});

/** Newest first; with `page` and `pageSize`, one page. */
export async function listInquiries(
  db: Queryable,
  paging: { page?: number; pageSize?: number } = {},
): Promise<{ rows: Inquiry[]; total: number }> {
  const columns = `id, kind, full_name, company, email, position, phone, subject, message, meeting_start,
    source_page, created_at, handled_at`;
  const [{ total }] = (await db.query<{ total: number }>('SELECT count(*)::int AS total FROM inquiries')) as [
    { total: number },
  ];
  if (paging.page === undefined && paging.pageSize === undefined) {
    const rows = await db.query<InquiryRow>(
      `SELECT ${columns} FROM inquiries ORDER BY created_at DESC, id DESC`,
    );
    return { rows: rows.map(toInquiry), total };
  }
  const pageSize = paging.pageSize ?? 50;
  const rows = await db.query<InquiryRow>(
    `SELECT ${columns} FROM inquiries ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [pageSize, ((paging.page ?? 1) - 1) * pageSize],
  );
  return { rows: rows.map(toInquiry), total };
}

export interface NewInquiry {
  kind: 'contact' | 'meeting';
  fullName: string;
  company?: string;
  email: string;
  position?: string;
  phone?: string;
  subject: string;
  message?: string;
  meetingStart?: Date;
  privacyVersion: string;
  sourcePage?: string;
}

/** Thrown when a meeting slot was requested by someone else first (the partial unique index). */
export class SlotTakenError extends Error {
  override readonly name = 'SlotTakenError';
}

/** Stores one contact message or meeting request; empty optional fields are stored as NULL. */
export async function insertInquiry(db: Queryable, inquiry: NewInquiry): Promise<number> {
  const orNull = (value: string | undefined) => (value ? value : null);
  try {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO inquiries (kind, full_name, company, email, position, phone, subject, message, meeting_start,
         privacy_version, source_page)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        inquiry.kind,
        inquiry.fullName,
        orNull(inquiry.company),
        inquiry.email,
        orNull(inquiry.position),
        orNull(inquiry.phone),
        inquiry.subject,
        orNull(inquiry.message),
        inquiry.meetingStart ?? null,
        inquiry.privacyVersion,
        orNull(inquiry.sourcePage),
      ],
    );
    return row!.id;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new SlotTakenError('slot taken');
    throw error;
  }
}

/** Meeting slots already requested between `from` and `to`, as ISO instants. */
export async function requestedSlots(db: Queryable, from: Date, to: Date): Promise<Set<string>> {
  const rows = await db.query<{ meeting_start: Date }>(
    `SELECT meeting_start FROM inquiries
     WHERE kind = 'meeting' AND meeting_start >= $1 AND meeting_start <= $2`,
    [from, to],
  );
  return new Set(rows.map((row) => new Date(row.meeting_start).toISOString()));
}

/**
 * Marks an inquiry as handled (keeping the first time it was) or opens it again.
 * @returns the updated inquiry, or undefined when no row has this id.
 */
export async function setInquiryHandled(
  db: Queryable,
  id: number,
  handled: boolean,
): Promise<Inquiry | undefined> {
  const [row] = await db.query<InquiryRow>(
    `UPDATE inquiries SET handled_at = CASE WHEN $2::boolean THEN coalesce(handled_at, now()) END
     WHERE id = $1
     RETURNING id, kind, full_name, company, email, position, phone, subject, message, meeting_start,
       source_page, created_at, handled_at`,
    [id, handled],
  );
  return row && toInquiry(row);
}
