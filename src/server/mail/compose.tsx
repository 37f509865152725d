/**
 * Turns an outbox row into a ready mail: loads the inquiry or subscriber it is about, renders the template
 * to HTML and plain text, and sets the headers (Reply-To, RFC 8058 one-click unsubscribe, RFC 3834
 * Auto-Submitted) and the calendar file. Values typed by visitors reach headers only through
 * {@link headerText}, so a CR/LF can never start a header of its own.
 */
import { render } from '@react-email/render';
import type Mail from 'nodemailer/lib/mailer';
import type { ReactElement } from 'react';
import { meetingIcs, meetingUid, type CalendarMethod, type MeetingStatus } from '../../lib/ics.ts';
import { site } from '../../site.config.ts';
import type { Queryable } from '../db/index.ts';
import { findInquiry, type StoredInquiry } from '../repositories/inquiries.ts';
import { isSuppressed, type MailTemplate, type OutboxRow } from '../repositories/outbox.ts';
import { findSubscriber, type StoredSubscriber } from '../repositories/subscribers.ts';
import { campaignForMail } from '../repositories/campaigns.ts';
import { findLink, isOpen, type LinkPurpose } from '../repositories/admin-links.ts';
import { findAdminById } from '../repositories/admins.ts';
import { accountLinkUrl, linkToken } from '../account-links.ts';
import { articlesFor, CampaignMail, type CampaignMailProps } from './campaign.tsx';
import { belgradeSlot, copy, fill, headerText } from './copy.ts';
import { addressTag, campaignViewUrl, linkUrl, signLinkToken } from './links.ts';
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
  sequence: number;
  start: Date;
  /** The firm's copy names the visitor in its summary; the visitor's names the firm. */
  forFirm?: { name: string };
  callLink?: string;
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

async function subscriberOf({ db, row }: Context): Promise<StoredSubscriber> {
  const subscriber = row.subscriberId === null ? undefined : await findSubscriber(db, row.subscriberId);
  if (!subscriber) throw new MailCancelled('the address is no longer on the list');
  return subscriber;
}

async function campaignOf({ db, row }: Context) {
  const campaign = row.campaignId === null ? undefined : await campaignForMail(db, row.campaignId);
  if (!campaign) throw new MailCancelled('the campaign was deleted');
  return campaign;
}

/** An issue as mail, with its "view in browser" link; `extra` says what stands in the footer. */
const issueMail = (
  campaign: Awaited<ReturnType<typeof campaignOf>>,
  siteUrl: string,
  extra: Pick<CampaignMailProps, 'unsubscribeUrl' | 'footerNote'>,
) => (
  <CampaignMail
    siteUrl={siteUrl}
    subject={campaign.subject}
    preheader={campaign.preheader}
    markdown={campaign.markdown}
    articles={articlesFor(campaign.articles)}
    viewUrl={campaignViewUrl(siteUrl, campaign.id)}
    {...extra}
  />
);

/** Stands for the recipient's unsubscribe address in an issue rendered once for all its recipients. */
const UNSUBSCRIBE_PLACEHOLDER = 'https://unsubscribe.invalid/korvel-recipient-link';

let lastIssue: { key: string; html: string; text: string } | undefined;

/** An issue as every subscriber gets it, up to their own unsubscribe address; rendered once per version. */
async function renderedIssue(
  campaign: Awaited<ReturnType<typeof campaignOf>>,
  siteUrl: string,
): Promise<{ html: string; text: string }> {
  const key = `${siteUrl} ${campaign.id} ${campaign.updatedAt}`;
  if (lastIssue?.key !== key) {
    const element = issueMail(campaign, siteUrl, { unsubscribeUrl: UNSUBSCRIBE_PLACEHOLDER });
    const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
    lastIssue = { key, html, text };
  }
  return { html: lastIssue.html, text: lastIssue.text };
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
      element: <T.ContactAck siteUrl={siteUrl} id={i.id} />,
      subject: copy.contact_ack.subject,
      replyTo: notifyTo,
    };
  },
  'meeting-notify': async (context) => {
    const { siteUrl } = context.settings;
    const i = await inquiryOf(context);
    const start = i.start;
    return {
      element: (
        <T.MeetingNotify
          siteUrl={siteUrl}
          id={i.id}
          start={start}
          fullName={i.fullName}
          company={i.company}
          email={i.email}
          subject={i.subject ?? ''}
          receivedAt={new Date(i.createdAt)}
        />
      ),
      subject: fill(copy.meeting_notify.subject, {
        ...belgradeSlot(start),
        name: headerText(i.fullName, 60),
      }),
      replyTo: mailbox(i.fullName, i.email),
      calendar: { method: 'PUBLISH', status: 'tentative', sequence: 0, start, forFirm: { name: i.fullName } },
    };
  },
  'meeting-ack': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const { start } = await inquiryOf(context);
    return {
      element: <T.MeetingAck siteUrl={siteUrl} start={start} />,
      subject: fill(copy.meeting_ack.subject, belgradeSlot(start)),
      replyTo: notifyTo,
      calendar: { method: 'REQUEST', status: 'tentative', sequence: 0, start },
    };
  },
  'meeting-confirmed': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const { start } = await inquiryOf(context);
    const { callLink, sequence } = context.row.params as { callLink: string; sequence: number };
    return {
      element: <T.MeetingConfirmed siteUrl={siteUrl} start={start} callLink={callLink} />,
      subject: fill(copy.meeting_confirmed.subject, belgradeSlot(start)),
      replyTo: notifyTo,
      calendar: { method: 'REQUEST', status: 'confirmed', sequence, start, callLink },
    };
  },
  'meeting-declined': async (context) => {
    const { siteUrl, notifyTo } = context.settings;
    const { start } = await inquiryOf(context);
    const { note, sequence } = context.row.params as { note: string; sequence: number };
    return {
      element: <T.MeetingDeclined siteUrl={siteUrl} start={start} note={note} />,
      subject: fill(copy.meeting_declined.subject, belgradeSlot(start)),
      replyTo: notifyTo,
      calendar: { method: 'CANCEL', status: 'cancelled', sequence, start },
    };
  },
  'newsletter-confirm': async (context) => {
    const { siteUrl } = context.settings;
    const s = await subscriberOf(context);
    if (s.status !== 'pending') throw new MailCancelled('the address is already confirmed');
    const token = await signLinkToken('confirm', { subscriberId: s.id, tag: addressTag(s.email) });
    return {
      element: <T.NewsletterConfirm siteUrl={siteUrl} confirmUrl={linkUrl(siteUrl, 'confirm', token)} />,
      subject: copy.newsletter_confirm.subject,
    };
  },
  'newsletter-welcome': async (context) => {
    const { siteUrl } = context.settings;
    const s = await subscriberOf(context);
    if (s.status !== 'confirmed') throw new MailCancelled('the address is not confirmed');
    const token = await signLinkToken('unsubscribe', { subscriberId: s.id, tag: addressTag(s.email) });
    const unsubscribeUrl = linkUrl(siteUrl, 'unsubscribe', token);
    return {
      element: <T.NewsletterWelcome siteUrl={siteUrl} unsubscribeUrl={unsubscribeUrl} />,
      subject: copy.newsletter_welcome.subject,
      unsubscribeUrl,
    };
  },
  campaign: async (context) => {
    const { siteUrl } = context.settings;
    const campaign = await campaignOf(context);
    if (campaign.status !== 'sending') throw new MailCancelled(`the campaign is ${campaign.status}`);
    const s = await subscriberOf(context);
    if (s.status !== 'confirmed') throw new MailCancelled('the address is not confirmed');
    const token = await signLinkToken('unsubscribe', { subscriberId: s.id, tag: addressTag(s.email) });
    const unsubscribeUrl = linkUrl(siteUrl, 'unsubscribe', token);
    const issue = await renderedIssue(campaign, siteUrl);
    const personal = (body: string) => body.replaceAll(UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl);
    return {
      rendered: { html: personal(issue.html), text: personal(issue.text) },
      subject: campaign.subject,
      unsubscribeUrl,
    };
  },
  'campaign-test': async (context) => {
    const { siteUrl } = context.settings;
    const campaign = await campaignOf(context);
    return {
      element: issueMail(campaign, siteUrl, { footerNote: copy.campaign.test_note }),
      subject: fill(copy.campaign.test_subject, { subject: campaign.subject }),
    };
  },
};

/** Mail that goes to subscribers as subscribers: suppressed addresses never receive it. */
export const NEWSLETTER_CLASS: ReadonlySet<MailTemplate> = new Set(['newsletter-welcome', 'campaign']);

/** The meeting's .ics: the same UID for every file about one slot, so each update replaces the last. */
function calendarFile(calendar: CalendarParts, recipient: string, settings: MailSettings): string {
  const c = copy.calendar;
  const values = {
    company: site.displayName,
    email: site.email,
    phone: site.phone,
    link: calendar.callLink ?? '',
  };
  return meetingIcs({
    start: calendar.start,
    uid: meetingUid(calendar.start, new URL(site.url).hostname),
    sequence: calendar.sequence,
    status: calendar.status,
    method: calendar.method,
    summary: calendar.forFirm
      ? fill(c.summary_firm, { name: headerText(calendar.forFirm.name, 80) })
      : fill(c.summary, values),
    description: fill(calendar.callLink ? c.description_confirmed : c.description, values),
    organizer: { name: site.displayName, email: addressOf(settings.notifyTo) },
    attendee: calendar.forFirm ? undefined : { email: recipient },
    location: calendar.callLink ? c.location : undefined,
    url: calendar.callLink,
  });
}

/** `Korvel <info@korvel.example>` → `info@korvel.example`. */
const addressOf = (mailbox: string) => /<([^>]+)>/.exec(mailbox)?.[1] ?? mailbox.trim();

/** Renders the row's mail, or throws {@link MailCancelled} when it must not be sent any more. */
export async function composeMail(
  db: Queryable,
  row: OutboxRow,
  settings: MailSettings,
): Promise<ComposedMail> {
  if (row.recipient === null) throw new MailCancelled('the mail was purged');
  if (NEWSLETTER_CLASS.has(row.template) && (await isSuppressed(db, row.recipient)))
    throw new MailCancelled('the address unsubscribed');
  const parts = await builders[row.template]({ db, row, settings });
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
      content: calendarFile(parts.calendar, row.recipient, settings),
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
