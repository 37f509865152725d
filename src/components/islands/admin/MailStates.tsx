import type { InquiryMail } from './api.ts';
import type { InquiriesCopy } from './copy.ts';
import { localDateTime } from './format.ts';

interface Props {
  mail: readonly InquiryMail[];
  copy: InquiriesCopy;
  retrying: number | null;
  onRetry: (mail: InquiryMail) => void;
}

/** Each mail an inquiry caused: to whom, and whether it went, waits or failed (with the server's reason). */
/** Inquiries cause only lead and meeting mail; newsletter mail and issues never belong to one. */
type InquiryTemplate = Exclude<InquiryMail['template'], `newsletter-${string}` | `campaign${string}`>;
const what = (copy: InquiriesCopy, mail: InquiryMail) => copy[`mail_${mail.template as InquiryTemplate}`];

export function MailStates({ mail, copy, retrying, onRetry }: Props) {
  if (mail.length === 0) return <p className="admin-mail__none">{copy.mail_none}</p>;
  return (
    <ul className="admin-mail">
      {mail.map((m) => (
        <li key={m.id} className={`admin-mail__item admin-mail__item--${m.status}`}>
          <span className="admin-mail__what">{what(copy, m)}</span>
          <span className="admin-mail__state">
            {copy[`mail_${m.status}`]}
            {m.status === 'sent' && m.sentAt && (
              <>
                {' '}
                <time dateTime={m.sentAt}>{localDateTime(m.sentAt)}</time>
              </>
            )}
          </span>
          {m.status === 'failed' && (
            <>
              {m.lastError && <code className="admin-mail__error">{m.lastError}</code>}
              <button
                type="button"
                className="admin-button admin-button--small"
                aria-disabled={retrying === m.id}
                onClick={() => retrying !== m.id && onRetry(m)}
              >
                {copy.retry_mail}
                <span className="visually-hidden">: {what(copy, m)}</span>
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
