import { useCallback, useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { MEETING_TIME_ZONE } from '../../lib/meeting-slots.ts';
import { CONTACT_LIMITS, meetingRequestSchema, documentLang } from '../../lib/schemas.ts';
import { isTimeZone } from '../../lib/time-zone.ts';
import { Field, FormEnd, FormStart, fieldBinder, fieldId, formValues } from './form/Field.tsx';
import { trapValue, useSubmission, type SubmitCopy } from './form/submit.ts';
import IslandErrorBoundary from './IslandErrorBoundary.tsx';
import '../../styles/forms.css';

export interface MeetingBookingCopy extends SubmitCopy {
  /** The BCP 47 tag days and times are written in (the page's language). */
  locale: string;
  labels: {
    fullName: string;
    email: string;
    company: string;
    subject: string;
    slot: string;
    privacy: string;
  };
  required: string;
  privacy: { before: string; link: string; href: string; after: string };
  /** Legend of the day picker, e.g. "Day". */
  day: string;
  /** "Times are Belgrade time (CET/CEST)." */
  zoneNote: string;
  /** "{time} your time" beside each slot when the visitor is elsewhere. */
  yourTime: string;
  loading: string;
  /** Shown when the slots cannot be loaded: offers e-mail and phone instead. */
  unavailable: string;
  /** A day whose every slot has been requested. */
  full: string;
  /** Shown before hydration and without JavaScript. */
  needsScript: string;
  retry: string;
  send: string;
  sending: string;
  summary: string;
  errorHeading: string;
}

interface Day {
  date: string;
  slots: { start: string; available: boolean }[];
}

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; days: Day[] };
const ID = 'meeting';
const FIELDS = ['fullName', 'email', 'company', 'subject'] as const;

/** Days and times in Belgrade, written in the page's language. */
function belgradeFormats(locale: string) {
  const belgrade = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { timeZone: MEETING_TIME_ZONE, ...options });
  return {
    timeInBelgrade: belgrade({ hour: '2-digit', minute: '2-digit' }),
    dayName: belgrade({ weekday: 'short', day: 'numeric', month: 'short' }),
    longDay: belgrade({ weekday: 'long', day: 'numeric', month: 'long' }),
  };
}

/**
 * Booking a 30-minute meeting: the free slots of the next ten working days (GET /api/meeting-slots), shown in
 * Belgrade time and, when the visitor is elsewhere, in their own; a request is stored as a `meeting` inquiry.
 */
function MeetingBookingInner({ copy }: { copy: MeetingBookingCopy }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [day, setDay] = useState<string>();
  const [slot, setSlot] = useState<string>();
  /** The browser's own zone, sent with the request so mail can show the visitor's time. */
  const [browserZone, setBrowserZone] = useState<string>();
  const { errors, general, sending, summary, submit } = useSubmission(copy);
  const bind = fieldBinder(ID, copy.labels, errors);
  const { timeInBelgrade, dayName, longDay } = useMemo(() => belgradeFormats(copy.locale), [copy.locale]);

  // Once the times are on screen, a reload (after a 409) keeps the form, and what was typed into its uncontrolled
  // fields, in place: until the new times arrive, or, if they cannot be fetched, with the times it has.
  const fetchSlots = useCallback(async () => {
    setLoad((current) => (current.state === 'ready' ? current : { state: 'loading' }));
    try {
      const response = await fetch('/api/meeting-slots');
      if (!response.ok) throw new Error(String(response.status));
      const { days } = (await response.json()) as { days: Day[] };
      setLoad({ state: 'ready', days });
      setDay((current) => current ?? days.find((d) => d.slots.some((s) => s.available))?.date);
    } catch {
      setLoad((current) => (current.state === 'ready' ? current : { state: 'failed' }));
    }
  }, []);

  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && isTimeZone(zone)) setBrowserZone(zone);
    void fetchSlots();
  }, [fetchSlots]);

  const local =
    browserZone && browserZone !== MEETING_TIME_ZONE
      ? new Intl.DateTimeFormat(copy.locale, { hour: '2-digit', minute: '2-digit', timeZone: browserZone })
      : undefined;

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { values, privacy } = formValues(form, FIELDS);
    const failed = await submit(meetingRequestSchema, {
      kind: 'meeting',
      ...values,
      slot: slot ?? '',
      ...(browserZone && { timeZone: browserZone }),
      privacy,
      source: '/contact',
      lang: documentLang(),
      fillMs: Math.round(performance.now()),
      ...trapValue(form),
    });
    // Someone else requested the time meanwhile: offer the times that are still free.
    if (failed?.status === 409) {
      setSlot(undefined);
      void fetchSlots();
    }
  }

  if (load.state === 'loading') {
    return (
      <p className="booking__status" role="status">
        {copy.loading}
      </p>
    );
  }
  if (load.state === 'failed') {
    return (
      <div className="booking__status" role="alert">
        <p>{copy.unavailable}</p>
        <button type="button" className="button button--secondary" onClick={() => void fetchSlots()}>
          {copy.retry}
        </button>
      </div>
    );
  }

  const current = load.days.find((d) => d.date === day);
  const free = current?.slots.filter((s) => s.available) ?? [];
  return (
    <form className="form booking" noValidate onSubmit={onSubmit} aria-describedby={`${ID}-required`}>
      <FormStart
        ref={summary}
        heading={copy.summary}
        idPrefix={ID}
        errors={errors}
        labels={copy.labels}
        general={general}
        required={copy.required}
      />
      <fieldset className="booking__days">
        <legend>{copy.day}</legend>
        <div className="booking__chips">
          {load.days.map((d) => {
            const open = d.slots.some((s) => s.available);
            const date = new Date(d.slots[0]!.start);
            return (
              <label key={d.date} className="chip">
                <input
                  type="radio"
                  name="meeting-day"
                  value={d.date}
                  checked={day === d.date}
                  disabled={!open}
                  onChange={() => {
                    setDay(d.date);
                    setSlot(undefined);
                  }}
                />
                <span>
                  {dayName.format(date)}
                  {!open && <span className="visually-hidden"> ({copy.full})</span>}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <fieldset
        className={`booking__slots${errors.slot ? ' form-field--invalid' : ''}`}
        aria-describedby={[`${ID}-zone`, errors.slot && `${ID}-slot-error`].filter(Boolean).join(' ')}
      >
        <legend>
          {copy.labels.slot}
          {current && <>: {longDay.format(new Date(current.slots[0]!.start))}</>}
          <span className="form-required" aria-hidden="true">
            {' '}
            *
          </span>
        </legend>
        <p className="form-hint" id={`${ID}-zone`}>
          {copy.zoneNote}
        </p>
        {free.length === 0 ? (
          <p>{copy.full}</p>
        ) : (
          <div className="booking__chips">
            {free.map((s, index) => {
              const at = new Date(s.start);
              return (
                <label key={s.start} className="chip chip--time">
                  <input
                    type="radio"
                    name="slot"
                    id={index === 0 ? fieldId(ID, 'slot') : undefined}
                    value={s.start}
                    checked={slot === s.start}
                    onChange={() => setSlot(s.start)}
                  />
                  <span>
                    {timeInBelgrade.format(at)}
                    {local && local.format(at) !== timeInBelgrade.format(at) && (
                      <small>{copy.yourTime.replace('{time}', local.format(at))}</small>
                    )}
                  </span>
                </label>
              );
            })}
          </div>
        )}
        {errors.slot && (
          <p className="form-error" id={`${ID}-slot-error`}>
            {errors.slot}
          </p>
        )}
      </fieldset>
      <div className="form-grid">
        <Field {...bind('fullName')} required autoComplete="name" maxLength={CONTACT_LIMITS.fullName} />
        <Field {...bind('email')} required type="email" autoComplete="email" maxLength={254} />
        <Field {...bind('company')} autoComplete="organization" maxLength={CONTACT_LIMITS.company} />
        <Field {...bind('subject')} required maxLength={CONTACT_LIMITS.subject} />
      </div>
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

export default function MeetingBooking({ copy }: { copy: MeetingBookingCopy }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <IslandErrorBoundary heading={copy.errorHeading}>
      {hydrated ? (
        <MeetingBookingInner copy={copy} />
      ) : (
        // Before hydration: the loading line with JavaScript on, the e-mail and phone alternative without it.
        <>
          <p className="booking__status booking__status--js">{copy.loading}</p>
          <p className="booking__status booking__status--no-js">{copy.needsScript}</p>
        </>
      )}
    </IslandErrorBoundary>
  );
}
