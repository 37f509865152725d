/**
 * iCalendar (RFC 5545 / iTIP RFC 5546) files for a 30-minute meeting, written by ical-generator: the
 * tentative hold the visitor downloads or receives, the confirmation or move that replaces it and the
 * cancellation that removes it — each with the meeting's one UID, a higher SEQUENCE and a fresh DTSTAMP.
 * Times are UTC (`…Z`), never floating.
 */
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
  ICalEventTransparency,
  type ICalAttendeeData,
} from 'ical-generator';
import { meetingEnd } from './meeting-slots.ts';

export type MeetingStatus = 'tentative' | 'confirmed' | 'cancelled';
export type CalendarMethod = 'PUBLISH' | 'REQUEST' | 'CANCEL';

export interface MeetingEvent {
  start: Date;
  /**
   * The same for every file about one meeting (download, request, confirmation, cancellation), so each
   * one updates the entry the previous one made instead of adding another.
   */
  uid: string;
  /** 0 for the first file; each later update of the same meeting raises it. */
  sequence?: number;
  status: MeetingStatus;
  /** PUBLISH for a file to import; REQUEST and CANCEL for invitations sent by mail. */
  method: CalendarMethod;
  summary: string;
  description: string;
  organizer: { name: string; email: string };
  /**
   * Invitations name their attendees: the firm's meetings address as chair, the visitor as participant. A
   * downloadable file carries no personal data.
   */
  attendees?: { name?: string; email: string; role: 'chair' | 'participant' }[];
  /** The video-call link of a confirmed meeting. */
  url?: string;
  location?: string;
  /** When the file was made (DTSTAMP). */
  stamp?: Date;
}

const METHOD: Record<CalendarMethod, ICalCalendarMethod> = {
  PUBLISH: ICalCalendarMethod.PUBLISH,
  REQUEST: ICalCalendarMethod.REQUEST,
  CANCEL: ICalCalendarMethod.CANCEL,
};
const STATUS: Record<MeetingStatus, ICalEventStatus> = {
  tentative: ICalEventStatus.TENTATIVE,
  confirmed: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
};

/** One VEVENT in UTC, 30 minutes long, with CRLF line ends and lines folded at 75 octets. */
export function meetingIcs(event: MeetingEvent): string {
  const calendar = ical({
    prodId: { company: 'Korvel Engineering', product: 'Meetings', language: 'EN' },
    method: METHOD[event.method],
  });
  const attendees: ICalAttendeeData[] = (event.attendees ?? []).map((attendee) => ({
    email: attendee.email,
    name: attendee.name,
    rsvp: false,
    role: attendee.role === 'chair' ? ICalAttendeeRole.CHAIR : ICalAttendeeRole.REQ,
    status: attendee.role === 'chair' ? ICalAttendeeStatus.ACCEPTED : ICalAttendeeStatus.NEEDSACTION,
  }));
  calendar.createEvent({
    id: event.uid,
    sequence: event.sequence ?? 0,
    stamp: event.stamp ?? new Date(),
    start: event.start,
    end: meetingEnd(event.start),
    summary: event.summary,
    description: event.description,
    location: event.location ?? null,
    url: event.url ?? null,
    organizer: { name: event.organizer.name, email: event.organizer.email },
    attendees,
    status: STATUS[event.status],
    transparency:
      event.status === 'cancelled' ? ICalEventTransparency.TRANSPARENT : ICalEventTransparency.OPAQUE,
  });
  // RFC 5545 §3.1 ends every content line with CRLF, the last one included; ical-generator omits that one.
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/**
 * A meeting's UID from its stored local part (a UUID made when it was requested) and the site's host, e.g.
 * `0b6f…@www.korvel.example`. Never derived from the slot: two meetings in one slot are two events.
 */
export const meetingUid = (localPart: string, host: string) => `${localPart}@${host}`;
