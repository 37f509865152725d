/**
 * One component per mail. They receive only what they print; src/server/mail/compose.tsx loads it and
 * renders each to HTML and plain text. Mail to a visitor never repeats what the visitor typed (a form that
 * echoes its input would relay spam to any address).
 */
import { copy, fill, belgradeDateTime, belgradeSlot } from './copy.ts';
import { Action, Bullets, Facts, MailLayout, Paragraph, Subheading, TextLink } from './layout.tsx';

interface Base {
  siteUrl: string;
}

const slotText = (start: Date) => fill(copy.slot.value, belgradeSlot(start));

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
        ]}
      />
      <Action href={`${props.siteUrl}/admin`}>{c.admin}</Action>
    </MailLayout>
  );
}

export function ContactAck({ siteUrl, id }: Base & { id: number }) {
  const c = copy.contact_ack;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
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
  start: Date;
  fullName: string;
  company: string | null;
  email: string;
  subject: string;
  receivedAt: Date;
}

export function MeetingNotify(props: MeetingNotifyProps) {
  const c = copy.meeting_notify;
  const f = c.fields;
  const slot = belgradeSlot(props.start);
  return (
    <MailLayout
      siteUrl={props.siteUrl}
      heading={fill(c.heading, { id: props.id })}
      preview={fill(c.preview, slot)}
    >
      <Paragraph>{c.intro}</Paragraph>
      <Facts
        rows={[
          [f.slot, slotText(props.start)],
          [f.fullName, props.fullName],
          [f.company, props.company],
          [f.email, <TextLink href={`mailto:${props.email}`}>{props.email}</TextLink>],
          [f.subject, props.subject],
          [f.receivedAt, belgradeDateTime(props.receivedAt)],
        ]}
      />
      <Action href={`${props.siteUrl}/admin`}>{c.admin}</Action>
      <Paragraph small>{c.calendar}</Paragraph>
    </MailLayout>
  );
}

export function MeetingAck({ siteUrl, start }: Base & { start: Date }) {
  const c = copy.meeting_ack;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Facts rows={[[c.slot_label, slotText(start)]]} />
      <Paragraph>{c.status}</Paragraph>
      <Paragraph small>{c.calendar}</Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

export function MeetingConfirmed({ siteUrl, start, callLink }: Base & { start: Date; callLink: string }) {
  const c = copy.meeting_confirmed;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Facts
        rows={[
          [c.slot_label, slotText(start)],
          [c.link_label, <TextLink href={callLink} />],
        ]}
      />
      <Action href={callLink}>{c.join}</Action>
      <Paragraph small>{c.calendar}</Paragraph>
      <Paragraph small>{c.change}</Paragraph>
    </MailLayout>
  );
}

export function MeetingDeclined({ siteUrl, start, note }: Base & { start: Date; note: string }) {
  const c = copy.meeting_declined;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Facts
        rows={[
          [c.slot_label, slotText(start)],
          [c.note_label, note],
        ]}
      />
      <Action href={`${siteUrl}/contact#book-a-meeting`}>{c.rebook}</Action>
      <Paragraph small>{c.rebook_text}</Paragraph>
      <Paragraph small>{c.calendar}</Paragraph>
    </MailLayout>
  );
}

export function NewsletterConfirm({ siteUrl, confirmUrl }: Base & { confirmUrl: string }) {
  const c = copy.newsletter_confirm;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview}>
      <Paragraph>{c.intro}</Paragraph>
      <Action href={confirmUrl}>{c.button}</Action>
      <Paragraph small>
        {c.expiry} <TextLink href={confirmUrl} />
      </Paragraph>
      <Paragraph small>{c.not_you}</Paragraph>
    </MailLayout>
  );
}

export function NewsletterWelcome({ siteUrl, unsubscribeUrl }: Base & { unsubscribeUrl: string }) {
  const c = copy.newsletter_welcome;
  return (
    <MailLayout siteUrl={siteUrl} heading={c.heading} preview={c.preview} unsubscribeUrl={unsubscribeUrl}>
      <Paragraph>{c.intro}</Paragraph>
      <Paragraph>{c.expect}</Paragraph>
      <Action href={`${siteUrl}/blog`}>{c.read}</Action>
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
