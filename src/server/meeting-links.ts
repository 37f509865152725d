/**
 * GET and POST /meeting/cancel?token=… and /meeting/reschedule?token=… — the pages behind "Cancel this
 * meeting" and "Choose another time" in the visitor's mail. As with the newsletter links, mail scanners open
 * every link, so a GET only shows the meeting (and, to reschedule, its free times) with a button; the POST of
 * that plain HTML form makes the change. A tampered link, one used up by a later move, and one whose meeting
 * has started, been declined or cancelled get a page with a 4xx status and change nothing.
 */
import { intlLocale, localePath, splitLocale, type Lang } from '../i18n/lang.ts';
import { MEETING_TIME_ZONE, meetingEnd } from '../lib/meeting-slots.ts';
import { readsDifferently, zonedSlot, zoneLabel } from '../lib/time-zone.ts';
import { site } from '../site.config.ts';
import { database } from './config.ts';
import { DbUnavailableError } from './db/index.ts';
import { HttpError, isFormPost, readForm, readText, type Handler, type RequestContext } from './http.ts';
import { fill, mailCopy, type MailCopy } from './mail/copy.ts';
import { sendSoon } from './mail/kick.ts';
import { linkTokenOf, verifyMeetingLinkToken, type MeetingLinkPurpose } from './mail/links.ts';
import {
  cancelMeetingByVisitor,
  meetingForLink,
  meetingSlots,
  rescheduleMeetingByVisitor,
  type VisitorChange,
  type VisitorLink,
} from './meetings.ts';
import { linkPageResponse, type SlotChoice } from './pages/LinkPage.tsx';
import { SlotTakenError, type StoredInquiry, type VisitorChangeRefused } from './repositories/inquiries.ts';

/** The reschedule form sends one ISO instant; the cancel form nothing. */
const LINK_BODY_LIMIT = 4 * 1024;

/**
 * The words of one reader's pages: the language of the link the mail sent them (`/de/meeting/…` for a German
 * visitor), and the places to go next (English-form paths; the page prefixes them with its language).
 */
function wordsOf(lang: Lang) {
  const copy: MailCopy = mailCopy(lang);
  const pages = copy.meeting_pages;
  return {
    lang,
    copy,
    pages,
    BOOK: { href: '/contact#book-a-meeting', label: pages.book },
    HOME: { href: '/', label: pages.home },
  };
}
type Words = ReturnType<typeof wordsOf>;

/** Why a link cannot act, as status and page. */
const REFUSED: Record<VisitorChangeRefused, { status: number; page: RefusalPage }> = {
  gone: { status: 410, page: 'gone' },
  passed: { status: 410, page: 'passed' },
  declined: { status: 410, page: 'declined' },
  cancelled: { status: 410, page: 'already_cancelled' },
  moved: { status: 409, page: 'moved' },
};

interface Text {
  title: string;
  text: string[];
}

type RefusalPage = 'gone' | 'passed' | 'declined' | 'already_cancelled' | 'moved';

/** "Friday 27 November 2026, 09:00–09:30 Belgrade time (CET) · 08:00–08:30 your time (Europe/London)" */
function when({ pages, lang }: Words, start: Date, timeZone: string | null): string {
  const locale = intlLocale[lang];
  const belgrade = fill(pages.slot, zonedSlot(start, meetingEnd(start), MEETING_TIME_ZONE, locale));
  if (!timeZone || !readsDifferently(start, MEETING_TIME_ZONE, timeZone)) return belgrade;
  const own = fill(pages.slot_visitor, {
    ...zonedSlot(start, meetingEnd(start), timeZone, locale),
    name: zoneLabel(timeZone),
  });
  return `${belgrade} · ${own}`;
}

function page(
  words: Words,
  status: number,
  text: Text,
  options: {
    values?: Record<string, string>;
    next?: { href: string; label: string };
    alert?: string;
    form?: { action: string; button: string; choice?: SlotChoice };
  } = {},
): Response {
  return linkPageResponse(status, {
    eyebrow: words.pages.eyebrow,
    title: text.title,
    paragraphs: text.text.map((line) => fill(line, options.values ?? {})),
    ...(options.alert && { alert: options.alert }),
    ...(options.form && { form: options.form }),
    next: options.next ?? words.HOME,
    lang: words.lang,
  });
}

const refusedPage = (words: Words, reason: VisitorChangeRefused) => {
  const { status, page: key } = REFUSED[reason];
  return page(words, status, words.pages[key], { next: reason === 'moved' ? words.HOME : words.BOOK });
};

/** The free times a meeting can move to, in Belgrade time with the visitor's own beside each where it differs. */
async function slotChoice(words: Words, meeting: StoredInquiry): Promise<SlotChoice | undefined> {
  const { pages } = words;
  const locale = intlLocale[words.lang];
  const zone = meeting.visitorTimeZone;
  const dayLabel = new Intl.DateTimeFormat(locale, {
    timeZone: MEETING_TIME_ZONE,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  });
  const clock = (timeZone: string) =>
    new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const days = (await meetingSlots(database()))
    .map((day) => ({
      label: dayLabel.format(new Date(day.slots[0]!.start)),
      slots: day.slots
        .filter((slot) => slot.available)
        .map(({ start }) => {
          const at = new Date(start);
          const local =
            zone && readsDifferently(at, MEETING_TIME_ZONE, zone) ? clock(zone).format(at) : undefined;
          return {
            value: start,
            label: clock(MEETING_TIME_ZONE).format(at),
            ...(local && { local: fill(pages.reschedule.your_time, { time: local }) }),
          };
        }),
    }))
    .filter((day) => day.slots.length > 0);
  if (days.length === 0) return undefined;
  const r = pages.reschedule;
  return {
    legend: r.legend,
    hint:
      zone && days.some((day) => day.slots.some((slot) => slot.local))
        ? fill(r.zone_note, { name: zoneLabel(zone) })
        : r.zone_note_belgrade,
    name: 'slot',
    days,
  };
}

/** The reschedule page: the meeting, its free times and the button, with `alert` when a press failed. */
async function reschedulePage(
  words: Words,
  status: number,
  meeting: StoredInquiry,
  action: string,
  alert?: string,
): Promise<Response> {
  const r = words.pages.reschedule;
  const values = { when: when(words, new Date(meeting.meetingStart!), meeting.visitorTimeZone) };
  const choice = await slotChoice(words, meeting);
  if (!choice) {
    return page(
      words,
      status,
      { title: r.title, text: [...r.text.slice(0, 1), r.none] },
      { values: { ...values, email: site.email, phone: site.phone } },
    );
  }
  return page(words, status, r, { values, alert, form: { action, button: r.button, choice } });
}

/** The slot a reschedule form sends; undefined when the body is anything else. */
async function chosenSlot(req: Request): Promise<string | undefined> {
  if (!isFormPost(req)) {
    await readText(req, LINK_BODY_LIMIT);
    return undefined;
  }
  const fields = await readForm(req, LINK_BODY_LIMIT);
  const names = Object.keys(fields);
  return names.length === 1 && names[0] === 'slot' ? fields.slot : undefined;
}

/** The POST: cancels, or moves to the posted slot; a taken slot is an answer, not an error. */
async function change(
  purpose: MeetingLinkPurpose,
  link: VisitorLink,
  req: Request,
): Promise<VisitorChange | { done: false; refused: 'no_slot' }> {
  const db = database();
  if (purpose === 'cancel') {
    await readText(req, LINK_BODY_LIMIT);
    return db.transaction((tx) => cancelMeetingByVisitor(tx, link));
  }
  const slot = await chosenSlot(req);
  if (!slot) return { done: false, refused: 'no_slot' };
  try {
    return await db.transaction((tx) => rescheduleMeetingByVisitor(tx, link, slot));
  } catch (error) {
    if (error instanceof SlotTakenError) return { done: false, refused: 'slot_taken' };
    throw error;
  }
}

function linkHandlers(purpose: MeetingLinkPurpose): { GET: Handler; POST: Handler } {
  const respond =
    (method: 'GET' | 'POST'): Handler =>
    async (req: Request, context: RequestContext) => {
      // The mail sent the visitor to the page of their language (`/de/meeting/…` for German).
      const words = wordsOf(splitLocale(new URL(req.url).pathname).lang);
      const { pages, copy } = words;
      try {
        const token = linkTokenOf(req);
        const check = token ? await verifyMeetingLinkToken(purpose, token) : undefined;
        if (!check?.ok) {
          if (method === 'POST') await readText(req, LINK_BODY_LIMIT).catch(() => undefined);
          if (check?.reason === 'expired') return refusedPage(words, 'passed');
          return page(words, 400, copy.pages.invalid);
        }
        const action = `${localePath(words.lang, `/meeting/${purpose}`)}?token=${encodeURIComponent(token!)}`;
        const link = check.claims;
        const whenOf = (meeting: StoredInquiry) => ({
          when: when(words, new Date(meeting.meetingStart!), meeting.visitorTimeZone),
        });

        if (method === 'GET') {
          const found = await meetingForLink(database(), link);
          if ('refused' in found) return refusedPage(words, found.refused);
          const { meeting } = found;
          if (purpose === 'reschedule') return reschedulePage(words, 200, meeting, action);
          return page(words, 200, pages.cancel, {
            values: whenOf(meeting),
            form: { action, button: pages.cancel.button },
            next: { href: '/', label: pages.cancel.keep },
          });
        }

        const result = await change(purpose, link, req);
        if (result.done) {
          await sendSoon(context, database(), result.mailIds);
          return purpose === 'cancel'
            ? page(words, 200, pages.cancelled, { next: words.BOOK })
            : page(words, 200, pages.rescheduled, { values: whenOf(result.meeting) });
        }
        if (result.refused in REFUSED) return refusedPage(words, result.refused as VisitorChangeRefused);
        // The meeting still stands; only the chosen time did not work: show the times again.
        const found = await meetingForLink(database(), link);
        if ('refused' in found) return refusedPage(words, found.refused);
        const taken = result.refused === 'slot_taken';
        return reschedulePage(
          words,
          taken ? 409 : 400,
          found.meeting,
          action,
          taken ? pages.taken : pages.pick,
        );
      } catch (error) {
        if (error instanceof DbUnavailableError) {
          console.error(`[meeting-${purpose}] database unavailable: ${error.message}`);
          return page(words, 503, copy.pages.unavailable);
        }
        if (error instanceof HttpError && error.status === 413) return page(words, 413, copy.pages.invalid);
        if (error instanceof HttpError && error.status === 400) return page(words, 400, copy.pages.invalid);
        throw error;
      }
    };
  return { GET: respond('GET'), POST: respond('POST') };
}

export const cancelMeetingLinkHandlers = linkHandlers('cancel');
export const rescheduleMeetingLinkHandlers = linkHandlers('reschedule');
