/**
 * The life of a meeting request, one service function per state change: requested (the booking form),
 * confirmed or declined (the admin), cancelled or moved (the visitor, from the links in their mail). Each
 * change raises the meeting's calendar SEQUENCE, keeps a row in `meeting_history` and queues, in the same
 * transaction, one mail to the firm's meetings address and one to the visitor, both carrying the meeting's
 * one UID (see docs/decisions.md, "One identity per meeting").
 */
import { isOfferedSlot, meetingDays } from '../lib/meeting-slots.ts';
import type { Queryable } from './db/index.ts';
import { addressTag } from './mail/links.ts';
import { notifyAddress } from './mail/settings.ts';
import {
  cancelMeeting,
  decideMeeting,
  findInquiry,
  insertInquiry,
  lockMeeting,
  moveMeeting,
  recordMeetingChange,
  requestedSlots,
  visitorChangeRefused,
  type MeetingChange,
  type MeetingDecision,
  type NewInquiry,
  type StoredInquiry,
  type VisitorChangeRefused,
} from './repositories/inquiries.ts';
import { recordActivity } from './repositories/activity.ts';
import { enqueueMail, type MailTemplate, type OutgoingMail } from './repositories/outbox.ts';

/**
 * What every meeting mail is rendered from, fixed when it is queued: the calendar file of a mail sent late
 * still describes the meeting as it was at its change, and the SEQUENCE orders it among the others.
 */
export type MeetingMailParams = {
  change: MeetingChange;
  sequence: number;
  /** The meeting's start after the change (ISO). */
  start: string;
  /** {@link StoredInquiry.meetingMoves} after the change: the visitor's links are bound to it. */
  moves: number;
  previousStart?: string;
  callLink?: string;
  note?: string;
};

/** Which template each side receives for a change; the firm's notification covers every change. */
const VISITOR_TEMPLATE: Record<MeetingChange, MailTemplate> = {
  requested: 'meeting-ack',
  rescheduled: 'meeting-ack',
  confirmed: 'meeting-confirmed',
  declined: 'meeting-declined',
  cancelled: 'meeting-declined',
};

/** Records the change and queues both sides' mail for it; returns the outbox ids to send soon. */
async function announce(
  tx: Queryable,
  meeting: StoredInquiry,
  change: MeetingChange,
  extra: Pick<MeetingMailParams, 'previousStart' | 'callLink' | 'note'> = {},
): Promise<number[]> {
  await recordMeetingChange(tx, meeting, change, extra.previousStart);
  const params: MeetingMailParams = {
    change,
    sequence: meeting.meetingSequence,
    start: meeting.meetingStart!,
    moves: meeting.meetingMoves,
    ...extra,
  };
  const key = `meeting:${meeting.id}:${change}:${meeting.meetingSequence}`;
  const mails: OutgoingMail[] = [
    { key: `${key}:firm`, template: 'meeting-notify', to: notifyAddress(), inquiryId: meeting.id, params },
    {
      key: `${key}:visitor`,
      template: VISITOR_TEMPLATE[change],
      to: meeting.email,
      inquiryId: meeting.id,
      params,
    },
  ];
  return enqueueMail(tx, mails);
}

/**
 * A visitor requests a meeting: stores it with a fresh UID (SEQUENCE 0) and queues the firm's invitation and
 * the visitor's acknowledgement.
 * @throws SlotTakenError when the slot is held by another request.
 */
export async function requestMeeting(
  tx: Queryable,
  inquiry: NewInquiry,
): Promise<{ meeting: StoredInquiry; mailIds: number[] }> {
  const meeting = await insertInquiry(tx, inquiry);
  return { meeting, mailIds: await announce(tx, meeting, 'requested') };
}

/**
 * The admin confirms (with the call link) or declines (with a note) a meeting: both calendars get the update.
 * @returns the meeting, `undefined` when there is no such inquiry, `'conflict'` when its state does not allow it.
 */
export async function decideMeetingRequest(
  tx: Queryable,
  id: number,
  decision: MeetingDecision,
): Promise<{ meeting: StoredInquiry | undefined | 'conflict'; mailIds: number[] }> {
  const meeting = await decideMeeting(tx, id, decision);
  if (!meeting || meeting === 'conflict') return { meeting, mailIds: [] };
  const mailIds =
    decision.decision === 'confirm'
      ? await announce(tx, meeting, 'confirmed', { callLink: decision.callLink })
      : await announce(tx, meeting, 'declined', { note: decision.note });
  return { meeting, mailIds };
}

/** What a visitor's cancel or reschedule link did. */
export type VisitorChange =
  | { done: true; meeting: StoredInquiry; mailIds: number[]; previousStart?: string }
  | { done: false; refused: VisitorChangeRefused | 'slot_taken' | 'slot_not_offered' };

/** The link's claims, checked against the meeting it names. */
export interface VisitorLink {
  inquiryId: number;
  /** The address tag the link was signed with (see mail/links.ts). */
  tag: string;
  moves: number;
}

/** The meeting a visitor's link names, provided the link still belongs to it. */
async function meetingOfLink(
  db: Queryable,
  link: VisitorLink,
  lock: boolean,
): Promise<{ meeting: StoredInquiry } | { refused: VisitorChangeRefused }> {
  const meeting = lock ? await lockMeeting(db, link.inquiryId) : await findInquiry(db, link.inquiryId);
  if (meeting && addressTag(meeting.email) !== link.tag) return { refused: 'gone' };
  const refused = visitorChangeRefused(meeting, link.moves);
  return refused ? { refused } : { meeting: meeting! };
}

/**
 * What a visitor's link would act on, without changing anything (the page a GET shows).
 * @returns the meeting, or why the link can no longer act.
 */
export async function meetingForLink(
  db: Queryable,
  link: VisitorLink,
): Promise<{ meeting: StoredInquiry } | { refused: VisitorChangeRefused }> {
  return meetingOfLink(db, link, false);
}

/**
 * The visitor cancels from their mail: the slot is free again, the firm's calendar gets a CANCEL and the
 * visitor a cancellation with a CANCEL for theirs.
 */
export async function cancelMeetingByVisitor(tx: Queryable, link: VisitorLink): Promise<VisitorChange> {
  const found = await meetingOfLink(tx, link, true);
  if ('refused' in found) return { done: false, refused: found.refused };
  const meeting = await cancelMeeting(tx, link.inquiryId);
  await recordActivity(tx, {
    actor: null,
    action: 'meeting.cancelled_by_visitor',
    target: `inquiry ${link.inquiryId}`,
  });
  return { done: true, meeting, mailIds: await announce(tx, meeting, 'cancelled') };
}

/**
 * The visitor moves the meeting to another free slot from their mail: the old slot is free, the meeting is a
 * request again at the new time, and both calendars get the moved event (same UID, next SEQUENCE).
 * @throws SlotTakenError when someone else took `start` meanwhile (the transaction must be rolled back).
 */
export async function rescheduleMeetingByVisitor(
  tx: Queryable,
  link: VisitorLink,
  start: string,
): Promise<VisitorChange> {
  const found = await meetingOfLink(tx, link, true);
  if ('refused' in found) return { done: false, refused: found.refused };
  if (!isOfferedSlot(start)) return { done: false, refused: 'slot_not_offered' };
  const previousStart = found.meeting.meetingStart!;
  if (new Date(start).toISOString() === previousStart) return { done: false, refused: 'slot_taken' };
  const meeting = await moveMeeting(tx, link.inquiryId, new Date(start));
  await recordActivity(tx, {
    actor: null,
    action: 'meeting.rescheduled',
    target: `inquiry ${link.inquiryId}: ${previousStart} → ${meeting.meetingStart}`,
  });
  return {
    done: true,
    meeting,
    previousStart,
    mailIds: await announce(tx, meeting, 'rescheduled', { previousStart }),
  };
}

/** The slots of the next ten working days with whether each is still free. */
export async function meetingSlots(
  db: Queryable,
  now: Date = new Date(),
): Promise<{ date: string; slots: { start: string; available: boolean }[] }[]> {
  const days = meetingDays(now);
  const first = days[0]!.slots[0]!;
  const last = days.at(-1)!.slots.at(-1)!;
  const taken = await requestedSlots(db, new Date(first), new Date(last));
  return days.map((day) => ({
    date: day.date,
    slots: day.slots.map((start) => ({ start, available: !taken.has(start) })),
  }));
}
