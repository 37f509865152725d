/**
 * Turns an outbox row into a ready mail: loads the inquiry or subscriber it is about, renders the template
 * to HTML and plain text, and sets the headers (Reply-To, RFC 8058 one-click unsubscribe, RFC 3834
 * Auto-Submitted) and the calendar file. Values typed by visitors reach headers only through
 * {@link headerText}, so a CR/LF can never start a header of its own.
 */
import { render } from '@react-email/render';
import type Mail from 'nodemailer/lib/mailer';
import type { ReactElement } from 'react';
import type { Lang } from '../../i18n/lang.ts';
import { meetingIcs, meetingUid, type CalendarMethod, type MeetingStatus } from '../../lib/ics.ts';
import { site } from '../../site.config.ts';
import type { Queryable } from '../db/index.ts';
import type { MeetingMailParams } from '../meetings.ts';
import { findInquiry, type MeetingChange, type StoredInquiry } from '../repositories/inquiries.ts';
import { suppressionOf, type MailTemplate, type OutboxRow, type SendState } from '../repositories/outbox.ts';
import { findSubscriber, type StoredSubscriber } from '../repositories/subscribers.ts';
import { campaignForMail, type CampaignForMail } from '../repositories/campaigns.ts';
import type { SuppressionReason } from '../repositories/suppressions.ts';
import { findLink, isOpen, type LinkPurpose } from '../repositories/admin-links.ts';
import { findAdminById } from '../repositories/admins.ts';
import { accountLinkUrl, linkToken } from '../account-links.ts';
import { articlesFor, CampaignMail, type CampaignMailProps } from './campaign.tsx';
import { belgradeSlot, copy, fill, headerText, mailCopy } from './copy.ts';
import { emailHash } from './hash.ts';
import {
  addressTag,
  campaignViewUrl,
  campaignClickUrl,
  linkUrl,
  meetingLinkUrl,
  signLinkToken,
  signMeetingLinkToken,
} from './links.ts';
import type { MailSettings } from './settings.ts';
import * as T from './templates.tsx';

/** The mail must not go out any more; the row becomes `cancelled` with this reason. */
export class MailCancelled extends Error {
  override readonly name = 'MailCancelled';
}

export interface ComposedMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string | Mail.Address;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; content: string; contentType: string }>;
}

interface CalendarParts {
  method: CalendarMethod;
  status: MeetingStatus;
  /** The meeting's UID local part, the same in every file about it. */
  uid: string;
  sequence: number;
  start: Date;
  /** The visitor, invited in both sides' files. */
  visitor: { name: string; email: string };
  /** The firm's copy names the visitor in its summary; the visitor's names the firm. */
  forFirm?: { name: string };
  callLink?: string;
  /** The language of the summary and description: the visitor's, English for the firm's copy. */
  lang: Lang;
}

/** A template to render, or a mail already rendered (an issue renders once per campaign, not per recipient). */
type Body = { element: ReactElement } | { rendered: { html: string; text: string } };

type Parts = Body & {
  subject: string;
  replyTo?: string | Mail.Address;
  /** RFC 8058: the recipient's own one-click unsubscribe address (newsletter mail only). */
  unsubscribeUrl?: string;
  calendar?: CalendarParts;
};

interface Context {
  db: Queryable;
  row: OutboxRow;
  settings: MailSettings;
  /** The worker's look-up for the whole batch; without it, the mail reads its own rows. */
  state?: SendState;
}

/** `"Ana Kovač" <ana@example.com>`: nodemailer quotes and encodes the name, made header-safe here. */
const mailbox = (name: string, email: string): Mail.Address => ({
  name: headerText(name, 80),
  address: email,
});

async function inquiryOf({ db, row }: Context): Promise<StoredInquiry & { start: Date }> {
  const inquiry = row.inquiryId === null ? undefined : await findInquiry(db, row.inquiryId);
  if (!inquiry) throw new MailCancelled('the inquiry was deleted');
  return { ...inquiry, start: new Date(inquiry.meetingStart ?? inquiry.createdAt) };
}

async function subscriberOf({ db, row, state }: Context): Promise<StoredSubscriber> {
  const id = row.subscriberId;
  const subscriber =
    id === null ? undefined : state ? state.subscribers.get(id) : await findSubscriber(db, id);
  if (!subscriber) throw new MailCancelled('the address is no longer on the list');
  return subscriber;
}

async function campaignOf({ db, row, state }: Context): Promise<CampaignForMail> {
  const id = row.campaignId;
  const campaign = id === null ? undefined : state ? state.campaigns.get(id) : await campaignForMail(db, id);
  if (!campaign) throw new MailCancelled('the campaign was deleted');
  return campaign;
}

/** An issue as mail, with its "view in browser" link; `extra` says what stands in the footer. */
const issueMail = (
  campaign: CampaignForMail,
  siteUrl: string,
  extra: Pick<CampaignMailProps, 'unsubscribeUrl' | 'preferencesUrl' | 'footerNote' | 'trackLink'>,
) => (
  <CampaignMail
    siteUrl={siteUrl}
    lang={campaign.lang}
    subject={campaign.subject}
    preheader={campaign.preheader}
    markdown={campaign.markdown}
    articles={articlesFor(campaign.articles)}
    viewUrl={campaignViewUrl(siteUrl, campaign.id)}
    {...extra}
  />
);

/**
 * Stand for the recipient's unsubscribe and preference addresses in a mail rendered once for all its recipients
 * (an issue, the welcome); each copy gets its own addresses put in their place.
 */
const UNSUBSCRIBE_PLACEHOLDER = 'https://unsubscribe.invalid/korvel-recipient-link';
const PREFERENCES_PLACEHOLDER = 'https://preferences.invalid/korvel-recipient-link';

/** A reader's own links in newsletter mail: one-click unsubscribe and the preference page. */
interface ReaderLinks {
  unsubscribeUrl: string;
  preferencesUrl: string;
}

/** Signs the reader's two links, in `lang` (the mail's), counted against `campaignId` when an issue carries them. */
async function readerLinks(
  siteUrl: string,
  s: StoredSubscriber,
  lang: Lang,
  campaignId?: number,
): Promise<ReaderLinks> {
  const claims = { subscriberId: s.id, tag: addressTag(s.email), ...(campaignId && { campaignId }) };
  const [unsubscribe, preferences] = await Promise.all([
    signLinkToken('unsubscribe', claims),
    signLinkToken('preferences', claims),
  ]);
  return {
    unsubscribeUrl: linkUrl(siteUrl, 'unsubscribe', unsubscribe, lang),
    preferencesUrl: linkUrl(siteUrl, 'preferences', preferences, lang),
  };
}

/** What a mail rendered once carries in place of the reader's own links. */
const PLACEHOLDERS: ReaderLinks = {
  unsubscribeUrl: UNSUBSCRIBE_PLACEHOLDER,
  preferencesUrl: PREFERENCES_PLACEHOLDER,
};

/** The last few mails rendered once for many recipients, by what they were rendered from. */
const renderedOnce = new Map<string, Promise<{ html: string; text: string }>>();
const RENDERED_KEPT = 8;

/**
 * A mail every recipient gets the same up to their own links, rendered once per `key` (what it is rendered
 * from) and personalised with `links`.
 */
async function personalised(
  key: string,
  element: () => ReactElement,
  links: ReaderLinks,
): Promise<{ html: string; text: string }> {
  let rendered = renderedOnce.get(key);
  if (!rendered) {
    const mail = element();
    rendered = Promise.all([render(mail), render(mail, { plainText: true })]).then(([html, text]) => ({
      html,
      text,
    }));
    rendered.catch(() => renderedOnce.delete(key));
    renderedOnce.set(key, rendered);
    if (renderedOnce.size > RENDERED_KEPT) renderedOnce.delete(renderedOnce.keys().next().value!);
  }
  const { html, text } = await rendered;
  const personal = (body: string) =>
    body
      .replaceAll(UNSUBSCRIBE_PLACEHOLDER, links.unsubscribeUrl)
      .replaceAll(PREFERENCES_PLACEHOLDER, links.preferencesUrl);
  return { html: personal(html), text: personal(text) };
}

type Builder = (context: Context) => Promise<Parts>;

/** The invitation or reset link of the row: cancelled once it was used, replaced, revoked or has expired. */
async function accountLinkOf({ db, row }: Context, purpose: LinkPurpose) {
  const id = Number(row.params.linkId);
  const link = Number.isSafeInteger(id) ? await findLink(db, id) : undefined;
  if (!link || link.purpose !== purpose || !isOpen(link))
    throw new MailCancelled('the link is no longer open');
  const admin = await findAdminById(db, link.adminId);
  if (!admin) throw new MailCancelled('the account was deleted');
  return { link, admin, token: linkToken(purpose, link.id) };
}

const builders: Record<MailTemplate, Builder> = {
  'team-invite': async (context) => {
    const { siteUrl } = context.settings;
    const { link, admin, token } = await accountLinkOf(context, 'invite');
    if (admin.status !== 'invited') throw new MailCancelled('the invitation was accepted');
    const inviter =
      typeof context.row.params.inviter === 'string' ? context.row.params.inviter : site.displayName;
    return {
      element: (
        <T.TeamInvite
          siteUrl={siteUrl}
          inviteUrl={accountLinkUrl(siteUrl, 'invite', token)}
          role={admin.role}
          inviter={headerText(inviter, 120)}
          expiresAt={link.expiresAt}
        />
      ),
      subject: copy.team_invite.subject,
    };
  },
  'password-reset': async (context) => {
    const { siteUrl } = context.settings;
    const { token } = await accountLinkOf(context, 'reset');
    return {
      element: <T.PasswordReset siteUrl={siteUrl} resetUrl={accountLinkUrl(siteUrl, 'reset', token)} />,
      subject: copy.password_reset.subject,
    };
  },
  'account-locked': async (context) => {
    const { siteUrl } = context.settings;
    const { token } = await accountLinkOf(context, 'unlock');
    return {
      element: (
        <T.AccountLocked
          siteUrl={siteUrl}
          unlockUrl={accountLinkUrl(siteUrl, 'unlock', token)}
          step={String(context.row.params.step)}
        />
      ),
      subject: copy.account_locked.subject,
    };
  },
  'contact-notify': async (context) => {
    const { siteUrl } = context.settings;
    const i = await inquiryOf(context);
    return {
      element: (
        <T.ContactNotify
          siteUrl={siteUrl}
          id={i.id}
          fullName={i.fullName}
          company={i.company}
          email={i.email}
          position={i.position}
          phone={i.phone}
          subject={i.subject ?? ''}
          message={i.message ?? ''}
          sourcePage={i.sourcePage}
          receivedAt={new Date(i.createdAt)}
          privacyVersion={i.privacyVersion}
          senderLang={i.lang}
        />
      ),
      subject: fill(copy.contact_notify.subject, {
        subject: headerText(i.subject ?? '', 120),
        name: headerText(i.fullName, 60),
      }),
      replyTo: mailbox(i.fullName, i.email),
    };
  },
  'contact-ack': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const i = await inquiryOf(context);
    return {
      element: <T.ContactAck siteUrl={siteUrl} lang={i.lang} id={i.id} />,
      subject: mailCopy(i.lang).contact_ack.subject,
      replyTo: notifyTo,
    };
  },
  'meeting-notify': async (context) => {
    const { siteUrl } = context.settings;
    const i = await inquiryOf(context);
    const m = meetingParams(context.row, i);
    const values = { ...belgradeSlot(m.start), name: headerText(i.fullName, 60) };
    const c = copy.meeting_notify;
    return {
      element: (
        <T.MeetingNotify
          siteUrl={siteUrl}
          id={i.id}
          change={m.change}
          start={m.start}
          previousStart={m.previousStart}
          visitorTimeZone={i.visitorTimeZone}
          fullName={i.fullName}
          company={i.company}
          email={i.email}
          subject={i.subject ?? ''}
          receivedAt={new Date(i.createdAt)}
          senderLang={i.lang}
        />
      ),
      subject: fill(m.change === 'requested' ? c.subject : c.changes[m.change].subject, values),
      replyTo: mailbox(i.fullName, i.email),
      calendar: meetingCalendar(i, m, 'en', { name: i.fullName }),
    };
  },
  'meeting-ack': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const i = await inquiryOf(context);
    const m = meetingParams(context.row, i);
    const c = mailCopy(i.lang).meeting_ack;
    return {
      element: (
        <T.MeetingAck
          siteUrl={siteUrl}
          lang={i.lang}
          start={m.start}
          previousStart={m.previousStart}
          visitorTimeZone={i.visitorTimeZone}
          links={await meetingLinks(siteUrl, i, m)}
        />
      ),
      subject: fill(m.previousStart ? c.moved.subject : c.subject, belgradeSlot(m.start, i.lang)),
      replyTo: notifyTo,
      calendar: meetingCalendar(i, m, i.lang),
    };
  },
  'meeting-confirmed': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const i = await inquiryOf(context);
    const m = meetingParams(context.row, i);
    const callLink = m.callLink ?? '';
    return {
      element: (
        <T.MeetingConfirmed
          siteUrl={siteUrl}
          lang={i.lang}
          start={m.start}
          visitorTimeZone={i.visitorTimeZone}
          callLink={callLink}
          links={await meetingLinks(siteUrl, i, m)}
        />
      ),
      subject: fill(mailCopy(i.lang).meeting_confirmed.subject, belgradeSlot(m.start, i.lang)),
      replyTo: notifyTo,
      calendar: meetingCalendar(i, m, i.lang),
    };
  },
  'meeting-declined': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const i = await inquiryOf(context);
    const m = meetingParams(context.row, i);
    const byVisitor = m.change === 'cancelled';
    return {
      element: byVisitor ? (
        <T.MeetingCancelled
          siteUrl={siteUrl}
          lang={i.lang}
          start={m.start}
          visitorTimeZone={i.visitorTimeZone}
        />
      ) : (
        <T.MeetingDeclined
          siteUrl={siteUrl}
          lang={i.lang}
          start={m.start}
          visitorTimeZone={i.visitorTimeZone}
          note={m.note ?? ''}
        />
      ),
      subject: fill(
        (byVisitor ? mailCopy(i.lang).meeting_cancelled : mailCopy(i.lang).meeting_declined).subject,
        belgradeSlot(m.start, i.lang),
      ),
      replyTo: notifyTo,
      calendar: meetingCalendar(i, m, i.lang),
    };
  },
  'newsletter-confirm': async (context) => {
    const { siteUrl } = context.settings;
    const s = await subscriberOf(context);
    if (s.status !== 'pending') throw new MailCancelled('the address is already confirmed');
    const token = await signLinkToken('confirm', { subscriberId: s.id, tag: addressTag(s.email) });
    return {
      element: (
        <T.NewsletterConfirm
          siteUrl={siteUrl}
          lang={s.lang}
          confirmUrl={linkUrl(siteUrl, 'confirm', token, s.lang)}
          invited={context.row.params.invited === true}
        />
      ),
      subject: mailCopy(s.lang).newsletter_confirm.subject,
    };
  },
  'newsletter-welcome': async (context) => {
    const { siteUrl } = context.settings;
    const s = await subscriberOf(context);
    if (s.status !== 'confirmed') throw new MailCancelled('the address is not confirmed');
    const links = await readerLinks(siteUrl, s, s.lang);
    const welcome = () => <T.NewsletterWelcome siteUrl={siteUrl} lang={s.lang} {...PLACEHOLDERS} />;
    return {
      rendered: await personalised(`welcome ${s.lang} ${siteUrl}`, welcome, links),
      subject: mailCopy(s.lang).newsletter_welcome.subject,
      unsubscribeUrl: links.unsubscribeUrl,
    };
  },
  campaign: async (context) => {
    const { siteUrl } = context.settings;
    const campaign = await campaignOf(context);
    if (campaign.status !== 'sending') throw new MailCancelled(`the campaign is ${campaign.status}`);
    const s = await subscriberOf(context);
    if (s.status !== 'confirmed') throw new MailCancelled('the address is not confirmed');
    // The issue's language, which is the reader's: a send only reaches subscribers of the issue's language.
    const links = await readerLinks(siteUrl, s, campaign.lang, campaign.id);
    const issue = () =>
      issueMail(campaign, siteUrl, {
        ...PLACEHOLDERS,
        trackLink: (url) => campaignClickUrl(siteUrl, campaign.id, url),
      });
    return {
      rendered: await personalised(`issue ${siteUrl} ${campaign.id} ${campaign.updatedAt}`, issue, links),
      subject: campaign.subject,
      unsubscribeUrl: links.unsubscribeUrl,
    };
  },
  'campaign-test': async (context) => {
    const { siteUrl } = context.settings;
    const campaign = await campaignOf(context);
    return {
      element: issueMail(campaign, siteUrl, { footerNote: mailCopy(campaign.lang).campaign.test_note }),
      subject: fill(mailCopy(campaign.lang).campaign.test_subject, { subject: campaign.subject }),
    };
  },
};

/** Mail that goes to subscribers as subscribers: suppressed addresses never receive it. */
export const NEWSLETTER_CLASS: ReadonlySet<MailTemplate> = new Set(['newsletter-welcome', 'campaign']);

/**
 * Mail an address stops receiving once it bounced or complained (an unsubscribe stops only the newsletter):
 * test copies and the automatic acknowledgements. The firm's notifications and its replies about a meeting
 * still go; a confirmation goes only to a new sign-up, which the subscriber's status decides.
 */
export const BOUNCE_CLASS: ReadonlySet<MailTemplate> = new Set([
  'campaign-test',
  'contact-ack',
  'meeting-ack',
]);

const CANCELLED_BECAUSE: Record<SuppressionReason, string> = {
  unsubscribe: 'the address unsubscribed',
  hard_bounce: 'the address is suppressed: it bounced',
  soft_bounce: 'the address is suppressed: it bounced repeatedly',
  complaint: 'the address is suppressed: its owner marked our mail as spam',
  erased: 'the address was erased at its owner’s request',
};

/**
 * The meeting's .ics: the meeting's own UID (never the slot's) and the SEQUENCE of its change, so each file
 * updates the entry the last one made. Organizer and chair is the firm's meetings address; both copies invite
 * it and the visitor, so the firm's calendar holds the same event as the visitor's.
 */
function calendarFile(calendar: CalendarParts, settings: MailSettings): string {
  const c = mailCopy(calendar.lang).calendar;
  const values = {
    company: site.displayName,
    email: site.email,
    phone: site.phone,
    link: calendar.callLink ?? '',
  };
  const firm = { name: site.displayName, email: addressOf(settings.notifyTo) };
  return meetingIcs({
    start: calendar.start,
    uid: meetingUid(calendar.uid, new URL(site.url).hostname),
    sequence: calendar.sequence,
    status: calendar.status,
    method: calendar.method,
    summary: calendar.forFirm
      ? fill(c.summary_firm, { name: headerText(calendar.forFirm.name, 80) })
      : fill(c.summary, values),
    description: fill(calendar.callLink ? c.description_confirmed : c.description, values),
    organizer: firm,
    attendees: [
      { ...firm, role: 'chair' },
      { name: headerText(calendar.visitor.name, 80), email: calendar.visitor.email, role: 'participant' },
    ],
    location: calendar.callLink ? c.location : undefined,
    url: calendar.callLink,
  });
}

/** A meeting mail's params as {@link MeetingMailParams} queued them; mail queued before them reads the row. */
function meetingParams(row: OutboxRow, inquiry: StoredInquiry & { start: Date }) {
  const p = row.params as Partial<MeetingMailParams>;
  const legacy: Record<string, MeetingChange> = {
    'meeting-notify': 'requested',
    'meeting-ack': 'requested',
    'meeting-confirmed': 'confirmed',
    'meeting-declined': 'declined',
  };
  return {
    change: p.change ?? legacy[row.template]!,
    sequence: p.sequence ?? 0,
    start: p.start ? new Date(p.start) : inquiry.start,
    moves: p.moves ?? 0,
    previousStart: p.previousStart ? new Date(p.previousStart) : undefined,
    callLink: p.callLink,
    note: p.note,
  };
}

type MeetingMail = ReturnType<typeof meetingParams>;

/** What each change puts in both sides' calendar: an invitation (tentative or confirmed) or a cancellation. */
const CALENDAR: Record<MeetingChange, Pick<CalendarParts, 'method' | 'status'>> = {
  requested: { method: 'REQUEST', status: 'tentative' },
  rescheduled: { method: 'REQUEST', status: 'tentative' },
  confirmed: { method: 'REQUEST', status: 'confirmed' },
  declined: { method: 'CANCEL', status: 'cancelled' },
  cancelled: { method: 'CANCEL', status: 'cancelled' },
};

function meetingCalendar(
  inquiry: StoredInquiry,
  mail: MeetingMail,
  lang: Lang,
  forFirm?: { name: string },
): CalendarParts {
  return {
    ...CALENDAR[mail.change],
    lang,
    uid: inquiry.meetingUid,
    sequence: mail.sequence,
    start: mail.start,
    visitor: { name: inquiry.fullName, email: inquiry.email },
    forFirm,
    callLink: mail.change === 'confirmed' ? mail.callLink : undefined,
  };
}

/** The visitor's cancel and reschedule links, valid until the meeting starts, for this version of it. */
async function meetingLinks(
  siteUrl: string,
  inquiry: StoredInquiry,
  mail: MeetingMail,
): Promise<T.MeetingLinks> {
  const claims = { inquiryId: inquiry.id, tag: addressTag(inquiry.email), moves: mail.moves };
  const [cancel, reschedule] = await Promise.all([
    signMeetingLinkToken('cancel', claims, mail.start),
    signMeetingLinkToken('reschedule', claims, mail.start),
  ]);
  return {
    cancelUrl: meetingLinkUrl(siteUrl, 'cancel', cancel, inquiry.lang),
    rescheduleUrl: meetingLinkUrl(siteUrl, 'reschedule', reschedule, inquiry.lang),
  };
}

/** `Korvel <info@korvel.example>` → `info@korvel.example`. */
const addressOf = (mailbox: string) => /<([^>]+)>/.exec(mailbox)?.[1] ?? mailbox.trim();

/** Renders the row's mail, or throws {@link MailCancelled} when it must not be sent any more. */
export async function composeMail(
  db: Queryable,
  row: OutboxRow,
  settings: MailSettings,
  state?: SendState,
): Promise<ComposedMail> {
  if (row.recipient === null) throw new MailCancelled('the mail was purged');
  if (NEWSLETTER_CLASS.has(row.template) || BOUNCE_CLASS.has(row.template)) {
    const reason = state
      ? state.suppressed.get(emailHash(row.recipient))
      : await suppressionOf(db, row.recipient);
    if (reason && (NEWSLETTER_CLASS.has(row.template) || reason !== 'unsubscribe'))
      throw new MailCancelled(CANCELLED_BECAUSE[reason]);
  }
  const parts = await builders[row.template]({ db, row, settings, state });
  const { html, text } =
    'rendered' in parts
      ? parts.rendered
      : await Promise.all([render(parts.element), render(parts.element, { plainText: true })]).then(
          ([html, text]) => ({ html, text }),
        );
  const headers: Record<string, string> = {};
  if (parts.unsubscribeUrl) {
    headers['List-Unsubscribe'] = `<${parts.unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    // RFC 2919: lets mail clients and filters recognise every issue as the same list.
    headers['List-Id'] =
      `${site.displayName} newsletter <newsletter.${new URL(site.url).hostname.replace(/^www\./, '')}>`;
  } else {
    // Notifications and acknowledgements are machine-made: auto-responders must not answer them (RFC 3834).
    headers['Auto-Submitted'] = 'auto-generated';
  }
  const attachments: ComposedMail['attachments'] = [];
  if (parts.calendar) {
    attachments.push({
      filename: 'korvel-meeting.ics',
      content: calendarFile(parts.calendar, settings),
      contentType: `text/calendar; charset=utf-8; method=${parts.calendar.method}`,
    });
  }
  return {
    to: row.recipient,
    subject: headerText(parts.subject, 200),
    html,
    text,
    replyTo: parts.replyTo,
    headers,
    attachments,
  };
}
