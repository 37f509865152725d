/**
 * Fills in the meeting note on /thanks?meeting=<ISO start> (MeetingNote.astro): the visitor has just
 * requested that slot. Loaded only when the address names a meeting.
 */
import { MEETING_TIME_ZONE } from '../lib/meeting-slots.ts';

const start = new URLSearchParams(location.search).get('meeting');
const note = document.getElementById('meeting-note');
const at = start && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(start) ? new Date(start) : undefined;
if (note && at && !Number.isNaN(at.getTime())) {
  const when: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  };
  const belgrade = new Intl.DateTimeFormat('en-GB', { ...when, timeZone: MEETING_TIME_ZONE }).format(at);
  const local = new Intl.DateTimeFormat('en-GB', when).format(at);
  const text = note.querySelector<HTMLElement>('[data-meeting-text]');
  const localText = note.querySelector<HTMLElement>('[data-meeting-local]');
  if (text) text.textContent = (text.dataset.meetingText ?? '').replace('{time}', belgrade);
  if (localText) {
    if (local === belgrade) localText.remove();
    else localText.textContent = (localText.dataset.meetingLocal ?? '').replace('{time}', local);
  }
  note
    .querySelector('a[data-meeting-ics]')
    ?.setAttribute('href', `/api/meeting.ics?start=${encodeURIComponent(start!)}`);
  note.hidden = false;
}
