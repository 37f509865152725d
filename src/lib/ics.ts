/**
 * An iCalendar (RFC 5545) file for one requested 30-minute meeting, so the visitor can hold the time in their
 * own calendar until Korvel confirms it.
 */
import { meetingEnd } from './meeting-slots.ts';

export interface MeetingEvent {
  start: Date;
  /** Stable across downloads of the same slot, so a second import updates rather than duplicates. */
  uid: string;
  summary: string;
  description: string;
  organizerEmail: string;
  organizerName: string;
  /** When the file was made (DTSTAMP). */
  stamp?: Date;
}

/** `20261124T080000Z` */
const utc = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
const text = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines longer than 75 octets continue on the next line after CRLF and one space (§3.1). */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const pieces: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const width = new TextEncoder().encode(char).length;
    if (size + width > (pieces.length === 0 ? 75 : 74)) {
      pieces.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += width;
  }
  pieces.push(current);
  return pieces.join('\r\n ');
}

export function meetingIcs(event: MeetingEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Korvel Engineering//Meeting request//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utc(event.stamp ?? new Date())}`,
    `DTSTART:${utc(event.start)}`,
    `DTEND:${utc(meetingEnd(event.start))}`,
    `SUMMARY:${text(event.summary)}`,
    `DESCRIPTION:${text(event.description)}`,
    `ORGANIZER;CN=${text(event.organizerName)}:mailto:${event.organizerEmail}`,
    'STATUS:TENTATIVE',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
