/**
 * One shape for everything that tells us, after the fact, that a mail did not reach its reader or was
 * marked as spam: an SMTP answer at send time, a delivery status notification (RFC 3464) or complaint report
 * (ARF, RFC 5965) that came back to the return path, or a provider's webhook (SES via SNS, Postmark, Mailgun,
 * SendGrid). Readers of each source turn what they verified into these; one place applies them.
 */

/** Where an event came from: the send itself, a mailed report, or a provider's webhook. */
export type MailEventSource = 'smtp' | 'dsn' | 'arf' | 'ses' | 'postmark' | 'mailgun' | 'sendgrid';

/**
 * - `hard_bounce`: the recipient does not exist or refuses us for good (RFC 3463 5.1.x, 5.2.1, 5.7.1 …);
 * - `soft_bounce`: a mailbox full or a transient refusal (4.x.x, 5.2.2);
 * - `complaint`: the reader marked the mail as spam.
 */
export type MailEventKind = 'hard_bounce' | 'soft_bounce' | 'complaint';

export interface MailEvent {
  source: MailEventSource;
  kind: MailEventKind;
  /**
   * The source's own id of this event, so a repeated delivery of it is applied once (an SNS MessageId, a
   * Postmark ID, a Mailgun event id, a SendGrid sg_event_id, a report's Message-ID).
   */
  eventId: string;
  /** The outgoing mail's Message-ID as the event names it, with or without angle brackets. */
  messageId?: string;
  /** The VERP token of the return path the report came back to (`bounces+<token>@…`), when known. */
  returnPathToken?: string;
  /** The address the event concerns, as the source states it. */
  recipient?: string;
  /** The RFC 3463 enhanced status code (`5.1.1`), when the source gives one. */
  status?: string;
  /** The remote server's words, one line, for the admin; never shown to the public. */
  diagnostic?: string;
  /** When the source says it happened. */
  at: Date;
}

/** What applying an event did: changed something, had been applied before, or names no mail of ours. */
export type MailEventOutcome = 'applied' | 'duplicate' | 'unknown';
