import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { MEETING_DECISION_LIMITS, type MeetingDecisionInput } from '../../../lib/schemas.ts';
import type { Inquiry } from './api.ts';
import type { InquiriesCopy } from './copy.ts';

interface Props {
  inquiry: Inquiry;
  copy: InquiriesCopy;
  busy: boolean;
  onDecide: (decision: MeetingDecisionInput) => Promise<boolean>;
}

type Open = 'confirm' | 'decline' | null;

/**
 * Confirm (with the video-call link) or decline (with a note) a meeting request; a confirmed meeting can
 * still be cancelled. Each opens a small form in the card; the visitor is e-mailed when it is sent.
 */
export function MeetingDecision({ inquiry, copy, busy, onDecide }: Props) {
  const id = useId();
  const [open, setOpen] = useState<Open>(null);
  const [value, setValue] = useState('');
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);

  if (inquiry.meetingStatus === 'declined' || inquiry.meetingStatus === 'cancelled') return null;
  const canConfirm = inquiry.meetingStatus === 'requested';

  const toggle = (next: Open) => {
    setValue('');
    setOpen((current) => (current === next ? null : next));
  };
  const close = () => {
    setOpen(null);
    opener.current?.focus();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !open) return;
    const done = await onDecide(
      open === 'confirm'
        ? { decision: 'confirm', callLink: value.trim() }
        : { decision: 'decline', note: value },
    );
    if (done) setOpen(null);
  };

  return (
    <div className="admin-decision">
      <div className="admin-decision__buttons">
        {canConfirm && (
          <button
            type="button"
            ref={open === 'confirm' ? opener : undefined}
            className="admin-button admin-button--small admin-button--primary"
            aria-expanded={open === 'confirm'}
            aria-controls={`${id}-form`}
            onClick={() => toggle('confirm')}
          >
            {copy.confirm}
          </button>
        )}
        <button
          type="button"
          ref={open === 'decline' ? opener : undefined}
          className="admin-button admin-button--small admin-button--danger-quiet"
          aria-expanded={open === 'decline'}
          aria-controls={`${id}-form`}
          onClick={() => toggle('decline')}
        >
          {canConfirm ? copy.decline : copy.cancel_meeting}
        </button>
      </div>
      {open && (
        <form id={`${id}-form`} className="admin-decision__form" onSubmit={submit}>
          <label htmlFor={`${id}-field`} className="admin-label">
            {open === 'confirm' ? copy.call_link_label : copy.note_label}
          </label>
          {open === 'confirm' ? (
            <input
              ref={field}
              id={`${id}-field`}
              type="url"
              inputMode="url"
              className="admin-input"
              required
              pattern="https://.+"
              maxLength={MEETING_DECISION_LIMITS.callLink}
              placeholder="https://"
              aria-describedby={`${id}-hint`}
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
          ) : (
            <textarea
              ref={field}
              id={`${id}-field`}
              className="admin-input admin-textarea"
              required
              rows={3}
              maxLength={MEETING_DECISION_LIMITS.note}
              aria-describedby={`${id}-hint`}
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
          )}
          <p id={`${id}-hint`} className="admin-hint">
            {open === 'confirm' ? copy.call_link_hint : copy.note_hint}
          </p>
          <div className="admin-decision__buttons">
            <button type="button" className="admin-button admin-button--small" onClick={close}>
              {copy.close_form}
            </button>
            <button
              type="submit"
              className={`admin-button admin-button--small ${open === 'confirm' ? 'admin-button--primary' : 'admin-button--danger'}`}
              aria-disabled={busy}
            >
              {open === 'confirm' ? copy.send_confirmation : copy.send_decline}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
