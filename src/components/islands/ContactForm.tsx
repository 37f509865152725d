import { useEffect, useState, type SubmitEvent } from 'react';
import { CONTACT_LIMITS, contactSchema, documentLang } from '../../lib/schemas.ts';
import { Field, FormEnd, FormStart, fieldBinder, formValues } from './form/Field.tsx';
import { trapValue, useSubmission, type SubmitCopy } from './form/submit.ts';
import IslandErrorBoundary from './IslandErrorBoundary.tsx';
import '../../styles/forms.css';

export interface ContactFormCopy extends SubmitCopy {
  labels: {
    fullName: string;
    company: string;
    email: string;
    position: string;
    phone: string;
    subject: string;
    message: string;
    privacy: string;
  };
  /** The one explanation of the asterisk. */
  required: string;
  /** The privacy label around the link: before, link text, after. */
  privacy: { before: string; link: string; href: string; after: string };
  send: string;
  sending: string;
  summary: string;
  errorHeading: string;
}

const FIELDS = ['fullName', 'company', 'email', 'position', 'phone', 'subject', 'message'] as const;
const ID = 'contact';

/**
 * The contact form. Server-rendered as a plain form that posts to /api/contact (which answers a 303), so it
 * works before and without JavaScript. It hydrates when a visitor first reaches for it (`client:interaction`), keeping
 * anything typed meanwhile; from then on it validates with the function's own schema, shows
 * errors beside each field and in a summary that takes focus, and cannot be sent twice.
 */
function ContactFormInner({ copy }: { copy: ContactFormCopy }) {
  const [hydrated, setHydrated] = useState(false);
  const { errors, general, sending, summary, submit } = useSubmission(copy);
  const bind = fieldBinder(ID, copy.labels, errors);

  useEffect(() => setHydrated(true), []);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { values, privacy } = formValues(form, FIELDS);
    void submit(contactSchema, {
      kind: 'contact',
      ...values,
      privacy,
      source: '/contact',
      lang: documentLang(),
      // How long the page has been open: people need more than a few seconds to write a message.
      fillMs: Math.round(performance.now()),
      ...trapValue(form),
    });
  }

  return (
    <form
      className="form"
      action="/api/contact"
      method="post"
      noValidate={hydrated}
      onSubmit={onSubmit}
      aria-describedby={`${ID}-required`}
    >
      <FormStart
        ref={summary}
        heading={copy.summary}
        idPrefix={ID}
        errors={errors}
        labels={copy.labels}
        general={general}
        required={copy.required}
      />
      <input type="hidden" name="kind" value="contact" />
      <input type="hidden" name="source" value="/contact" />
      <div className="form-grid">
        <Field {...bind('fullName')} required autoComplete="name" maxLength={CONTACT_LIMITS.fullName} />
        <Field {...bind('company')} autoComplete="organization" maxLength={CONTACT_LIMITS.company} />
        <Field {...bind('email')} required type="email" autoComplete="email" maxLength={254} />
        <Field {...bind('position')} autoComplete="organization-title" maxLength={CONTACT_LIMITS.position} />
        <Field {...bind('phone')} type="tel" autoComplete="tel" maxLength={CONTACT_LIMITS.phone} />
        <Field {...bind('subject')} required maxLength={CONTACT_LIMITS.subject} />
      </div>
      <Field {...bind('message')} required multiline rows={7} maxLength={CONTACT_LIMITS.message} />
      <FormEnd
        idPrefix={ID}
        privacy={copy.privacy}
        error={errors.privacy}
        send={copy.send}
        sendingLabel={copy.sending}
        sending={sending}
      />
    </form>
  );
}

export default function ContactForm({ copy }: { copy: ContactFormCopy }) {
  return (
    <IslandErrorBoundary heading={copy.errorHeading}>
      <ContactFormInner copy={copy} />
    </IslandErrorBoundary>
  );
}
