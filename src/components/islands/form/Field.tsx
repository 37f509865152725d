import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface Common {
  /** Form field name, also the key of its error; the element id is `${idPrefix}-${name}`. */
  name: string;
  idPrefix: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
}

type InputProps = Common & { multiline?: false } & Omit<InputHTMLAttributes<HTMLInputElement>, 'name'>;
type AreaProps = Common & { multiline: true } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'>;

export const fieldId = (idPrefix: string, name: string) => `${idPrefix}-${name}`;

/** A labelled input or textarea with its hint and error tied to it by `aria-describedby`. */
export function Field(props: InputProps | AreaProps) {
  const { name, idPrefix, label, required, error, hint, multiline, ...rest } = props;
  const id = fieldId(idPrefix, name);
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const shared = {
    id,
    name,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="form-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {hint && (
        <p className="form-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea {...shared} {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)} />
      ) : (
        <input type="text" {...shared} {...(rest as InputHTMLAttributes<HTMLInputElement>)} />
      )}
      {error && (
        <p className="form-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The privacy agreement: a required checkbox whose label links the policy (uncontrolled, like the fields). */
export function Consent(props: { idPrefix: string; name: string; label: ReactNode; error?: string }) {
  const id = fieldId(props.idPrefix, props.name);
  return (
    <div className={`form-field form-field--check${props.error ? ' form-field--invalid' : ''}`}>
      <input
        type="checkbox"
        id={id}
        name={props.name}
        required
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      <label htmlFor={id}>
        {props.label}
        <span className="form-required" aria-hidden="true">
          {' '}
          *
        </span>
      </label>
      {props.error && (
        <p className="form-error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * A field people never see and bots fill in: any value makes the server answer as usual and store nothing.
 * Off-screen rather than `display: none`, which some bots skip; out of the tab order and the accessibility tree.
 */
export function Trap({ idPrefix }: { idPrefix: string }) {
  return (
    <div className="form-trap" aria-hidden="true">
      <label htmlFor={fieldId(idPrefix, 'website')}>Website</label>
      <input id={fieldId(idPrefix, 'website')} name="website" type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

export interface SummaryProps {
  heading: string;
  idPrefix: string;
  errors: Record<string, string>;
  labels: Record<string, string>;
  /** A problem not tied to a field (network, rate limit). */
  general?: string;
  ref?: React.Ref<HTMLDivElement>;
}

/** The error summary: takes focus after a failed submit and links each problem to its field. */
export function ErrorSummary({ heading, idPrefix, errors, labels, general, ref }: SummaryProps) {
  const entries = Object.entries(errors).filter(([name]) => labels[name]);
  if (!entries.length && !general) return <div ref={ref} tabIndex={-1} />;
  return (
    <div className="form-summary" role="alert" tabIndex={-1} ref={ref}>
      <h2 className="form-summary__title">{heading}</h2>
      {general && <p>{general}</p>}
      {entries.length > 0 && (
        <ul>
          {entries.map(([name, message]) => (
            <li key={name}>
              <a href={`#${fieldId(idPrefix, name)}`}>
                {labels[name]}: {message}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The top of a form: the error summary (empty until a failed submit) and the one asterisk note. */
export function FormStart(props: SummaryProps & { required: string }) {
  const { required, ...summary } = props;
  return (
    <>
      <ErrorSummary {...summary} />
      <p className="form-note" id={`${props.idPrefix}-required`}>
        {required}
      </p>
    </>
  );
}

/** The end of a form: the privacy agreement, the honeypot and the send button ("Sending..." while busy). */
export function FormEnd(props: {
  idPrefix: string;
  privacy: { before: string; link: string; href: string; after: string };
  error?: string;
  send: string;
  sendingLabel: string;
  sending: boolean;
}) {
  return (
    <>
      <Consent
        idPrefix={props.idPrefix}
        name="privacy"
        error={props.error}
        label={
          <>
            {props.privacy.before}
            <a href={props.privacy.href}>{props.privacy.link}</a>
            {props.privacy.after}
          </>
        }
      />
      <Trap idPrefix={props.idPrefix} />
      <button className="button button--primary form-submit" type="submit" disabled={props.sending}>
        {props.sending ? props.sendingLabel : props.send}
      </button>
    </>
  );
}

/**
 * `bind(name)`: the props that tie a {@link Field} to its label and error. The fields are uncontrolled: what a
 * visitor types before the island hydrates stays in the page (React keeps a hydrated input's value), and the
 * values are read from the form when it is sent ({@link formValues}).
 */
export function fieldBinder<K extends string>(
  idPrefix: string,
  labels: Record<K, string>,
  errors: Record<string, string>,
) {
  return (name: K) => ({ name, idPrefix, label: labels[name], error: errors[name] });
}

/** The current text of the named fields of `form`, and whether its privacy box is ticked. */
export function formValues<K extends string>(form: HTMLFormElement, names: readonly K[]) {
  const text = (name: string) => {
    const element = form.elements.namedItem(name);
    return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : '';
  };
  const privacy = form.elements.namedItem('privacy');
  return {
    values: Object.fromEntries(names.map((name) => [name, text(name)])) as Record<K, string>,
    privacy: privacy instanceof HTMLInputElement && privacy.checked,
  };
}
