/**
 * One component per mail. They receive only what they print; src/server/mail/compose.tsx loads it and
 * renders each to HTML and plain text. Mail to a visitor never repeats what the visitor typed (a form that
 * echoes its input would relay spam to any address).
 */
import { localePath, type Lang } from '../../i18n/lang.ts';
import type { MeetingChange } from '../repositories/inquiries.ts';
import {
  copy,
  fill,
  belgradeDateTime,
  belgradeSlot,
  belgradeSlotText as slotText,
  mailCopy,
  visitorSlotText,
} from './copy.ts';
import { Action, Bullets, Facts, MailLayout, Paragraph, Subheading, TextLink } from './layout.tsx';

interface Base {
  siteUrl: string;
}

/** Mail to a subscriber or visitor: written in their stored language, its links to that language's pages. */
interface ToReader extends Base {
  lang: Lang;
}

/** `https://…/de/contact#book-a-meeting` for a German reader. */
const pageUrl = ({ siteUrl, lang }: ToReader, path: string) => `${siteUrl}${localePath(lang, path)}`;

/** The visitor's signed links to cancel or move their meeting. */
export interface MeetingLinks {
  cancelUrl: string;
  rescheduleUrl: string;
}

/** "Plans changed?": the two links of the visitor's acknowledgement and confirmation. */
function ChangeLinks({ links, lang }: { links: MeetingLinks; lang: Lang }) {
  const c = mailCopy(lang).meeting_links;
  return (
    <>
      <Subheading>{c.heading}</Subheading>
      <Paragraph>{c.text}</Paragraph>
      <Paragraph>
        <TextLink href={links.rescheduleUrl}>{c.reschedule}</TextLink>
        {' · '}
        <TextLink href={links.cancelUrl}>{c.cancel}</TextLink>
      </Paragraph>
    </>
  );
}

/** The meeting's time rows: Belgrade time, and the visitor's own where their clocks read differently. */
function slotRows(
  label: string,
  start: Date,
  timeZone: string | null,
  whose: 'visitor' | 'firm',
  lang: Lang = 'en',
): [string, string][] {
  const own = visitorSlotText(start, timeZone, whose, lang);
  const c = mailCopy(lang);
  const ownLabel = whose === 'visitor' ? c.slot.your_time_label : c.meeting_notify.fields.visitorTime;
  return own
    ? [
        [label, slotText(start, lang)],
        [ownLabel, own],
      ]
    : [[label, slotText(start, lang)]];
}

export interface ContactNotifyProps extends Base {
  id: number;
  fullName: string;
  company: string | null;
  email: string;
  position: string | null;
  phone: string | null;
  subject: string;
  message: string;
  sourcePage: string | null;
  receivedAt: Date;
  privacyVersion: string;
  /** The language the sender wrote from: the firm replies in it. */
  senderLang: Lang;
}

export function ContactNotify(props: ContactNotifyProps) {
  const c = copy.contact_notify;
  const f = c.fields;
  return (
    <MailLayout
      siteUrl={props.siteUrl}
      heading={fill(c.heading, { id: props.id })}
      preview={fill(c.preview, { name: props.fullName })}
    >
      <Paragraph>{c.intro}</Paragraph>
      <Facts
        empty={c.empty}
        rows={[
          [f.fullName, props.fullName],
          [f.company, props.company],
          [f.email, <TextLink href={`mailto:${props.email}`}>{props.email}</TextLink>],
          [f.position, props.position],
          [f.phone, props.phone],
          [f.subject, props.subject],
          [f.message, props.message],
          [f.sourcePage, props.sourcePage],
          [f.receivedAt, belgradeDateTime(props.receivedAt)],
          [f.privacyVersion, props.privacyVersion],
          [f.lang, copy.languages[props.senderLang]],
        ]}
      />
      <Action href={`${props.siteUrl}/admin`}>{c.admin}</Action>
    </MailLayout>
  );
}

export function ContactAck({ siteUrl, lang, id }: ToReader & { id: number }) {
  const c = mailCopy(lang).contact_ack;
  return (
    <MailLayout siteUrl={siteUrl} lang={lang} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Subheading>{c.next_heading}</Subheading>
      <Bullets items={c.next} />
      <Paragraph>
        <strong>{fill(c.reference, { id })}</strong>
      </Paragraph>
      <Paragraph small>{c.no_echo}</Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

export interface MeetingNotifyProps extends Base {
  id: number;
  /** Which change of the meeting this mail tells the firm about. */
  change: MeetingChange;
  start: Date;
  /** Reschedules: the time it was moved from. */
  previousStart?: Date;
  visitorTimeZone: string | null;
  fullName: string;
  company: string | null;
  email: string;
  subject: string;
  receivedAt: Date;
  /** The language the visitor booked from: the firm talks to them in it. */
  senderLang: Lang;
}

/** The firm's mail about a meeting: the request itself, or what changed since (with the calendar update). */
export function MeetingNotify(props: MeetingNotifyProps) {
  const c = copy.meeting_notify;
  const f = c.fields;
  const slot = belgradeSlot(props.start);
  const text =
    props.change === 'requested'
      ? { heading: c.heading, preview: c.preview, intro: c.intro, calendar: c.calendar }
      : c.changes[props.change];
  const values = { ...slot, id: props.id, name: props.fullName };
  return (
    <MailLayout
      siteUrl={props.siteUrl}
      heading={fill(text.heading, values)}
      preview={fill(text.preview, values)}
    >
      <Paragraph>{text.intro}</Paragraph>
      <Facts
        rows={[
          ...slotRows(f.slot, props.start, props.visitorTimeZone, 'firm'),
          ...(props.previousStart ? [[f.previous, slotText(props.previousStart)] as [string, string]] : []),
          [f.fullName, props.fullName],
          [f.company, props.company],
          [f.email, <TextLink href={`mailto:${props.email}`}>{props.email}</TextLink>],
          [f.subject, props.subject],
          [f.receivedAt, belgradeDateTime(props.receivedAt)],
          [f.lang, copy.languages[props.senderLang]],
        ]}
      />
      <Action href={`${props.siteUrl}/admin`}>{c.admin}</Action>
      <Paragraph small>{text.calendar}</Paragraph>
    </MailLayout>
  );
}

export interface MeetingAckProps extends ToReader {
  start: Date;
  visitorTimeZone: string | null;
  /** Set when the visitor moved the meeting: the mail then says so and names the old time. */
  previousStart?: Date;
  links: MeetingLinks;
}

/** The visitor's acknowledgement of a request, or of their move to a new time. */
export function MeetingAck({ siteUrl, lang, start, visitorTimeZone, previousStart, links }: MeetingAckProps) {
  const c = mailCopy(lang).meeting_ack;
  const moved = previousStart ? c.moved : undefined;
  return (
    <MailLayout
      siteUrl={siteUrl}
      lang={lang}
      heading={moved?.heading ?? c.heading}
      preview={moved?.preview ?? c.preview}
    >
      <Paragraph>{moved?.intro ?? c.intro}</Paragraph>
      <Facts
        rows={[
          ...slotRows(moved?.slot_label ?? c.slot_label, start, visitorTimeZone, 'visitor', lang),
          ...(previousStart
            ? [[c.moved.previous_label, slotText(previousStart, lang)] as [string, string]]
            : []),
        ]}
      />
      <Paragraph>{moved?.status ?? c.status}</Paragraph>
      <ChangeLinks links={links} lang={lang} />
      <Paragraph small>{moved?.calendar ?? c.calendar}</Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

export interface MeetingConfirmedProps extends ToReader {
  start: Date;
  visitorTimeZone: string | null;
  callLink: string;
  links: MeetingLinks;
}

export function MeetingConfirmed({
  siteUrl,
  lang,
  start,
  visitorTimeZone,
  callLink,
  links,
}: MeetingConfirmedProps) {
  const c = mailCopy(lang).meeting_confirmed;
  return (
    <MailLayout siteUrl={siteUrl} lang={lang} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Facts
        rows={[
          ...slotRows(c.slot_label, start, visitorTimeZone, 'visitor', lang),
          [c.link_label, <TextLink href={callLink} />],
        ]}
      />
      <Action href={callLink}>{c.join}</Action>
      <Paragraph small>{c.calendar}</Paragraph>
      <Paragraph small>{c.change}</Paragraph>
      <ChangeLinks links={links} lang={lang} />
    </MailLayout>
  );
}

export interface MeetingDeclinedProps extends ToReader {
  start: Date;
  visitorTimeZone: string | null;
  note: string;
}

export function MeetingDeclined(props: MeetingDeclinedProps) {
  const { siteUrl, lang, start, visitorTimeZone, note } = props;
  const c = mailCopy(lang).meeting_declined;
  return (
    <MailLayout siteUrl={siteUrl} lang={lang} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Facts
        rows={[...slotRows(c.slot_label, start, visitorTimeZone, 'visitor', lang), [c.note_label, note]]}
      />
      <Action href={pageUrl(props, '/contact#book-a-meeting')}>{c.rebook}</Action>
      <Paragraph small>{c.rebook_text}</Paragraph>
      <Paragraph small>{c.calendar}</Paragraph>
    </MailLayout>
  );
}

/** The visitor cancelled with their link: what happened, and a way to book again. */
export function MeetingCancelled(props: ToReader & { start: Date; visitorTimeZone: string | null }) {
  const { siteUrl, lang, start, visitorTimeZone } = props;
  const c = mailCopy(lang).meeting_cancelled;
  return (
    <MailLayout siteUrl={siteUrl} lang={lang} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Facts rows={slotRows(c.slot_label, start, visitorTimeZone, 'visitor', lang)} />
      <Action href={pageUrl(props, '/contact#book-a-meeting')}>{c.rebook}</Action>
      <Paragraph small>{c.rebook_text}</Paragraph>
      <Paragraph small>{c.calendar}</Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

/** `invited`: the address came from the firm's own contact list (an import), not from the sign-up form. */
export function NewsletterConfirm({
  siteUrl,
  lang,
  confirmUrl,
  invited = false,
}: ToReader & { confirmUrl: string; invited?: boolean }) {
  const c = mailCopy(lang).newsletter_confirm;
  return (
    <MailLayout siteUrl={siteUrl} lang={lang} heading={c.heading} preview={c.preview}>
      <Paragraph>{invited ? c.intro_invited : c.intro}</Paragraph>
      <Action href={confirmUrl}>{c.button}</Action>
      <Paragraph small>
        {c.expiry} <TextLink href={confirmUrl} />
      </Paragraph>
      <Paragraph small>{invited ? c.not_you_invited : c.not_you}</Paragraph>
    </MailLayout>
  );
}

export function NewsletterWelcome(props: ToReader & { unsubscribeUrl: string; preferencesUrl: string }) {
  const { siteUrl, lang, unsubscribeUrl, preferencesUrl } = props;
  const c = mailCopy(lang).newsletter_welcome;
  return (
    <MailLayout
      siteUrl={siteUrl}
      lang={lang}
      heading={c.heading}
      preview={c.preview}
      unsubscribeUrl={unsubscribeUrl}
      preferencesUrl={preferencesUrl}
    >
      <Paragraph>{c.intro}</Paragraph>
      <Paragraph>{c.expect}</Paragraph>
      <Action href={pageUrl(props, '/blog')}>{c.read}</Action>
      <Paragraph small>{c.leave}</Paragraph>
    </MailLayout>
  );
}

export interface TeamInviteProps extends Base {
  inviteUrl: string;
  role: 'owner' | 'editor' | 'sales';
  inviter: string;
  expiresAt: Date;
}

export function TeamInvite({ siteUrl, inviteUrl, role, inviter, expiresAt }: TeamInviteProps) {
  const c = copy.team_invite;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={fill(c.preview, { role })}>
      <Paragraph>{fill(c.intro, { inviter, role, duties: c.duties[role] })}</Paragraph>
      <Paragraph>{c.steps}</Paragraph>
      <Action href={inviteUrl}>{c.button}</Action>
      <Paragraph small>
        {fill(c.expiry, { expires: belgradeDateTime(expiresAt), inviter })} <TextLink href={inviteUrl} />
      </Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

/** To the account's holder when a sign-in step locks (src/server/lockout.ts), with the unlock link. */
export function AccountLocked({ siteUrl, unlockUrl, step }: Base & { unlockUrl: string; step: string }) {
  const c = copy.account_locked;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
      <Paragraph>{step === 'mfa' ? c.intro_mfa : c.intro_password}</Paragraph>
      <Paragraph>{c.steps}</Paragraph>
      <Action href={unlockUrl}>{c.button}</Action>
      <Paragraph small>
        {c.expiry} <TextLink href={unlockUrl} />
      </Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

export function PasswordReset({ siteUrl, resetUrl }: Base & { resetUrl: string }) {
  const c = copy.password_reset;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Action href={resetUrl}>{c.button}</Action>
      <Paragraph small>
        {c.expiry} <TextLink href={resetUrl} />
      </Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}
