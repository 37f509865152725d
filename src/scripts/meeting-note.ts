/**
 * Fills in the meeting note on /thanks?meeting=<ISO start>&uid=<meeting UID> (MeetingNote.astro): the visitor
 * has just requested that slot. Loaded only when the address names a meeting.
 */
import { intlLocale, langOf } from '../i18n/lang.ts';
import { MEETING_TIME_ZONE } from '../lib/meeting-slots.ts';

const params = new URLSearchParams(location.search);
const start = params.get('meeting');
const uid = params.get('uid');
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
  // In the page's language: „Donnerstag, 27. November 2026 um 10:00“ on /de/thanks.
  const lang = langOf(document.documentElement.lang);
  const locale = intlLocale[lang];
  const belgrade = new Intl.DateTimeFormat(locale, { ...when, timeZone: MEETING_TIME_ZONE }).format(at);
  const local = new Intl.DateTimeFormat(locale, when).format(at);
  const text = note.querySelector<HTMLElement>('[data-meeting-text]');
  const localText = note.querySelector<HTMLElement>('[data-meeting-local]');
  if (text) text.textContent = (text.dataset.meetingText ?? '').replace('{time}', belgrade);
  if (localText) {
    if (local === belgrade) localText.remove();
    else localText.textContent = (localText.dataset.meetingLocal ?? '').replace('{time}', local);
  }
  const download = note.querySelector('a[data-meeting-ics]');
  if (uid && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uid)) {
    // The calendar file speaks the page's language (its summary and description).
    const query = new URLSearchParams({ start: start!, uid, ...(lang !== 'en' && { lang }) });
    download?.setAttribute('href', `/api/meeting.ics?${query}`);
  } else {
    // Without the meeting's UID a downloaded file would become a second entry beside the mailed invitation.
    download?.remove();
  }
  note.hidden = false;
}
