import type { Lang } from '../../i18n/lang.ts';
import type { Queryable } from '../db/index.ts';
import { mailOfInquiries, type InquiryMail } from './outbox.ts';
import { withoutAddresses } from '../redact.ts';

export type MeetingStatus = 'requested' | 'confirmed' | 'declined' | 'cancelled';

/** A state change of a meeting, as the `meeting_history` table keeps it. */
export type MeetingChange = 'requested' | 'confirmed' | 'declined' | 'cancelled' | 'rescheduled';

export interface MeetingHistoryEntry {
  change: MeetingChange;
  /** When it happened (ISO). */
  at: string;
  /** The meeting's start after the change (ISO). */
  start: string;
  /** Reschedules only: the start it was moved from (ISO). */
  from: string | null;
}

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
  /**
   * Meeting requests only: requested, then confirmed with a call link or declined with a note; the visitor may
   * cancel it (cancelled) or move it (requested again, at the new time).
   */
  meetingStatus: MeetingStatus | null;
  callLink: string | null;
  declineNote: string | null;
  /** The visitor's IANA time zone when they booked (meetings only, when their browser said). */
  visitorTimeZone: string | null;
  /** The language of the page they wrote or booked on: the mail to them is in it. */
  lang: Lang;
  /** The mail this inquiry caused, oldest first (filled in by {@link listInquiries}). */
  mail: InquiryMail[];
  /** Meetings: every state change, oldest first (filled in with the mail). */
  meetingHistory: MeetingHistoryEntry[];
}

/** What the mail templates and the visitor's links need beyond the admin's view. */
export interface StoredInquiry extends Inquiry {
  privacyVersion: string;
  /** The calendar SEQUENCE of the last message sent about the meeting. */
  meetingSequence: number;
  /** The calendar UID's local part (before "@host"), the same for the meeting's whole life. */
  meetingUid: string;
  /** How often the visitor has moved the meeting; their links carry it, so a moved meeting's old links stop. */
  meetingMoves: number;
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
  meeting_status: MeetingStatus | null;
  call_link: string | null;
  decline_note: string | null;
  meeting_sequence: number;
  privacy_version: string;
  meeting_uid: string;
  meeting_moves: number;
  visitor_time_zone: string | null;
  lang: Lang;
}

const COLUMNS = `id, kind, full_name, company, email, position, phone, subject, message, meeting_start, source_page,
  created_at, handled_at, meeting_status, call_link, decline_note, meeting_sequence, privacy_version, meeting_uid,
  meeting_moves, visitor_time_zone, lang`;

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
  meetingStatus: row.meeting_status,
  callLink: row.call_link,
  declineNote: row.decline_note,
  visitorTimeZone: row.visitor_time_zone,
  lang: row.lang,
  mail: [],
  meetingHistory: [],
});

const toStored = (row: InquiryRow): StoredInquiry => ({
  ...toInquiry(row),
  privacyVersion: row.privacy_version,
  meetingSequence: row.meeting_sequence,
  meetingUid: row.meeting_uid,
  meetingMoves: row.meeting_moves,
});

/** The admin's view: the inquiries with their mail and, for meetings, their history. */
async function withMail(db: Queryable, inquiries: Inquiry[]): Promise<Inquiry[]> {
  const ids = inquiries.map((i) => i.id);
  const [mail, history] = [await mailOfInquiries(db, ids), await meetingHistoryOf(db, ids)];
  return inquiries.map((inquiry) => ({
    ...inquiry,
    // An SMTP reply repeats addresses; the admin's screen needs the reason, not them.
    mail: (mail.get(inquiry.id) ?? []).map((m) => ({
      ...m,
      lastError: m.lastError && withoutAddresses(m.lastError),
    })),
    meetingHistory: history.get(inquiry.id) ?? [],
  }));
}

/** The state changes of these meetings, oldest first, by inquiry id. */
export async function meetingHistoryOf(
  db: Queryable,
  inquiryIds: readonly number[],
): Promise<Map<number, MeetingHistoryEntry[]>> {
  const byInquiry = new Map<number, MeetingHistoryEntry[]>();
  if (inquiryIds.length === 0) return byInquiry;
  const rows = await db.query<{
    inquiry_id: number;
    change: MeetingChange;
    meeting_start: Date;
    previous_start: Date | null;
    created_at: Date;
  }>(
    `SELECT inquiry_id, change, meeting_start, previous_start, created_at FROM meeting_history
     WHERE inquiry_id = ANY($1::int[]) ORDER BY id`,
    [inquiryIds],
  );
  for (const row of rows) {
    const list = byInquiry.get(row.inquiry_id) ?? [];
    list.push({
      change: row.change,
      at: iso(row.created_at)!,
      start: iso(row.meeting_start)!,
      from: iso(row.previous_start),
    });
    byInquiry.set(row.inquiry_id, list);
  }
  return byInquiry;
}

/** Keeps one state change of a meeting, with the SEQUENCE it was sent with. */
export async function recordMeetingChange(
  db: Queryable,
  meeting: Pick<StoredInquiry, 'id' | 'meetingSequence' | 'meetingStart'>,
  change: MeetingChange,
  previousStart?: string,
): Promise<void> {
  await db.query(
    `INSERT INTO meeting_history (inquiry_id, change, sequence, meeting_start, previous_start)
     VALUES ($1, $2, $3, $4, $5)`,
    [meeting.id, change, meeting.meetingSequence, meeting.meetingStart, previousStart ?? null],
  );
}

export async function findInquiry(db: Queryable, id: number): Promise<StoredInquiry | undefined> {
  const [row] = await db.query<InquiryRow>(`SELECT ${COLUMNS} FROM inquiries WHERE id = $1`, [id]);
  return row && toStored(row);
}

/** One inquiry as the admin sees it, with its mail. */
export async function inquiryForAdmin(db: Queryable, id: number): Promise<Inquiry | undefined> {
  const inquiry = await findInquiry(db, id);
  if (!inquiry) return undefined;
  const { privacyVersion: _p, meetingSequence: _s, meetingUid: _u, meetingMoves: _m, ...view } = inquiry;
  return (await withMail(db, [view]))[0];
}

/** Newest first; with `page` and `pageSize`, one page. */
export async function listInquiries(
  db: Queryable,
  paging: { page?: number; pageSize?: number } = {},
): Promise<{ rows: Inquiry[]; total: number }> {
  const [{ total }] = (await db.query<{ total: number }>('SELECT count(*)::int AS total FROM inquiries')) as [
    { total: number },
  ];
  if (paging.page === undefined && paging.pageSize === undefined) {
    const rows = await db.query<InquiryRow>(
      `SELECT ${COLUMNS} FROM inquiries ORDER BY created_at DESC, id DESC`,
    );
    return { rows: await withMail(db, rows.map(toInquiry)), total };
  }
  const pageSize = paging.pageSize ?? 50;
  const rows = await db.query<InquiryRow>(
    `SELECT ${COLUMNS} FROM inquiries ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [pageSize, ((paging.page ?? 1) - 1) * pageSize],
  );
  return { rows: await withMail(db, rows.map(toInquiry)), total };
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
  /** Meetings: the visitor's IANA time zone, when their browser said. */
  visitorTimeZone?: string;
  privacyVersion: string;
  sourcePage?: string;
  /** The language of the page the form was on. */
  lang: Lang;
}

/** Thrown when a meeting slot was requested by someone else first (the partial unique index). */
export class SlotTakenError extends Error {
  override readonly name = 'SlotTakenError';
}

/**
 * Stores one contact message or meeting request; empty optional fields are stored as NULL. The row gets its
 * calendar UID from the table's default, a random UUID that no other meeting ever shares.
 * @throws SlotTakenError when the slot is held by another request.
 */
export async function insertInquiry(db: Queryable, inquiry: NewInquiry): Promise<StoredInquiry> {
  const orNull = (value: string | undefined) => (value ? value : null);
  try {
    const [row] = await db.query<InquiryRow>(
      `INSERT INTO inquiries (kind, full_name, company, email, position, phone, subject, message, meeting_start,
         privacy_version, source_page, meeting_status, visitor_time_zone, lang)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
         CASE WHEN $1 = 'meeting' THEN 'requested' END,
         CASE WHEN $1 = 'meeting' THEN $12 END, $13) RETURNING ${COLUMNS}`,
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
        orNull(inquiry.visitorTimeZone),
        inquiry.lang,
      ],
    );
    return toStored(row!);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new SlotTakenError('slot taken');
    throw error;
  }
}

/** Meeting slots already requested between `from` and `to`, as ISO instants. */
export async function requestedSlots(db: Queryable, from: Date, to: Date): Promise<Set<string>> {
  const rows = await db.query<{ meeting_start: Date }>(
    `SELECT meeting_start FROM inquiries
     WHERE kind = 'meeting' AND meeting_status IN ('requested', 'confirmed')
       AND meeting_start >= $1 AND meeting_start <= $2`,
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
     WHERE id = $1 RETURNING id`,
    [id, handled],
  );
  return row && inquiryForAdmin(db, id);
}

export type MeetingDecision =
  { decision: 'confirm'; callLink: string } | { decision: 'decline'; note: string };

/**
 * Confirms or declines a meeting request and raises its calendar SEQUENCE. A request may be confirmed or
 * declined; a confirmed meeting may still be declined (cancelled). Declining frees the slot.
 * @returns the updated row, `undefined` when there is no such inquiry, or `'conflict'` when it is not a
 *   meeting in a state that allows this decision.
 */
export async function decideMeeting(
  db: Queryable,
  id: number,
  decision: MeetingDecision,
): Promise<StoredInquiry | undefined | 'conflict'> {
  const confirm = decision.decision === 'confirm';
  const [row] = await db.query<InquiryRow>(
    `UPDATE inquiries SET meeting_status = $2, meeting_sequence = meeting_sequence + 1, meeting_decided_at = now(),
       call_link = CASE WHEN $2 = 'confirmed' THEN $3::text ELSE call_link END,
       decline_note = CASE WHEN $2 = 'declined' THEN $3 ELSE decline_note END,
       handled_at = coalesce(handled_at, now())
     WHERE id = $1 AND kind = 'meeting'
       AND meeting_status = ANY($4::text[])
     RETURNING ${COLUMNS}`,
    [
      id,
      confirm ? 'confirmed' : 'declined',
      confirm ? decision.callLink : decision.note,
      confirm ? ['requested'] : ['requested', 'confirmed'],
    ],
  );
  if (row) return toStored(row);
  const exists = await db.query('SELECT 1 FROM inquiries WHERE id = $1', [id]);
  return exists.length ? 'conflict' : undefined;
}

/** Why a visitor's link can no longer act on its meeting. */
export type VisitorChangeRefused = 'gone' | 'passed' | 'declined' | 'cancelled' | 'moved';

/**
 * Whether the visitor may still cancel or move this meeting with a link issued at `moves`: it exists, is
 * requested or confirmed, has not started, and was not moved since the link was sent.
 */
export function visitorChangeRefused(
  meeting: StoredInquiry | undefined,
  moves: number,
  now: Date = new Date(),
): VisitorChangeRefused | undefined {
  if (!meeting || meeting.kind !== 'meeting' || !meeting.meetingStart) return 'gone';
  if (meeting.meetingStatus === 'declined') return 'declined';
  if (meeting.meetingStatus === 'cancelled') return 'cancelled';
  if (new Date(meeting.meetingStart).getTime() <= now.getTime()) return 'passed';
  if (meeting.meetingMoves !== moves) return 'moved';
  return undefined;
}

/** The meeting, locked for the rest of the transaction so that two presses of a link act once. */
export async function lockMeeting(db: Queryable, id: number): Promise<StoredInquiry | undefined> {
  const [row] = await db.query<InquiryRow>(
    `SELECT ${COLUMNS} FROM inquiries WHERE id = $1 AND kind = 'meeting' FOR UPDATE`,
    [id],
  );
  return row && toStored(row);
}

/** The visitor cancels: the slot is free again and the calendar SEQUENCE rises. */
export async function cancelMeeting(db: Queryable, id: number): Promise<StoredInquiry> {
  const [row] = await db.query<InquiryRow>(
    `UPDATE inquiries SET meeting_status = 'cancelled', meeting_sequence = meeting_sequence + 1,
       meeting_decided_at = now()
     WHERE id = $1 AND kind = 'meeting' RETURNING ${COLUMNS}`,
    [id],
  );
  return toStored(row!);
}

/**
 * The visitor moves the meeting to `start`: it becomes a request again (the firm confirms the new time), the
 * old slot is free and the calendar SEQUENCE rises.
 * @throws SlotTakenError when someone else holds `start`.
 */
export async function moveMeeting(db: Queryable, id: number, start: Date): Promise<StoredInquiry> {
  try {
    const [row] = await db.query<InquiryRow>(
      `UPDATE inquiries SET meeting_start = $2, meeting_status = 'requested', call_link = NULL,
         meeting_decided_at = NULL, meeting_sequence = meeting_sequence + 1, meeting_moves = meeting_moves + 1
       WHERE id = $1 AND kind = 'meeting' RETURNING ${COLUMNS}`,
      [id, start],
    );
    return toStored(row!);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new SlotTakenError('slot taken');
    throw error;
  }
}
