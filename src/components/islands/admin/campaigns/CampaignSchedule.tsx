import { useState } from 'react';
import { belgradeInstant } from '../../../../lib/meeting-slots.ts';
import { ApiError, isAuthError, scheduleCampaign } from '../api.ts';
import { belgradeMoment, fill, ownMomentIfOther } from '../format.ts';
import type { CampaignsProps } from './types.ts';
import { FIRM_TIME_ZONE } from '../../../../lib/firm-time.ts';

interface Props extends Pick<CampaignsProps, 'token' | 'copy' | 'notify' | 'onUnauthorized'> {
  /** When the draft is scheduled to start (ISO), or null. */
  scheduledAt: string | null;
  /** Saves the draft first when it has unsaved changes or no id yet; resolves to its id, or null. */
  ensureSaved: () => Promise<number | null>;
  onChange: (scheduledAt: string | null) => void;
}

/** Belgrade's wall clock as a `datetime-local` value: "2026-12-01T10:00". */
const wallClock = new Intl.DateTimeFormat('sv-SE', {
  timeZone: FIRM_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const toWall = (iso: string) => wallClock.format(new Date(iso)).replace(' ', 'T');

/** The instant at which Belgrade's clocks show a `datetime-local` value. */
function fromWall(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as number[];
  return belgradeInstant({ year: year!, month: month!, day: day! }, hour! * 60 + minute!).toISOString();
}

/**
 * A draft's schedule: the moment it starts sending by itself, entered and shown in Belgrade time (where the
 * firm works) and shown in the editor's own time as well when that differs. Saving a time saves the draft
 * first, so a new draft can be scheduled straight away.
 */
export function CampaignSchedule({
  token,
  copy,
  notify,
  onUnauthorized,
  scheduledAt,
  ensureSaved,
  onChange,
}: Props) {
  const [value, setValue] = useState(() => (scheduledAt ? toWall(scheduledAt) : ''));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = fromWall(value);
  const chosenOwn = chosen && ownMomentIfOther(chosen);
  const own = scheduledAt && ownMomentIfOther(scheduledAt);

  const save = async (next: string | null) => {
    if (busy) return;
    setBusy(true);
    try {
      const id = await ensureSaved();
      if (id === null) return;
      const saved = await scheduleCampaign(token, id, next);
      setError(null);
      onChange(saved.scheduledAt);
      if (saved.scheduledAt)
        notify(fill(copy.schedule_saved, { belgrade: belgradeMoment(saved.scheduledAt) }));
      else {
        setValue('');
        notify(copy.schedule_cleared);
      }
    } catch (failure) {
      if (isAuthError(failure)) onUnauthorized();
      else if (failure instanceof ApiError && failure.fields.scheduledAt)
        setError(failure.fields.scheduledAt);
      else notify(copy.schedule_failed, 'error');
    } finally {
      setBusy(false);
    }
  };

  const schedule = () => {
    if (!chosen) return setError(copy.schedule_missing);
    void save(chosen);
  };

  return (
    <fieldset className="admin-campaign__schedule" aria-describedby="campaign-schedule-hint">
      <legend className="admin-label">{copy.schedule_legend}</legend>
      <p id="campaign-schedule-hint" className="admin-hint">
        {copy.schedule_hint}
      </p>
      <p className="admin-campaign__schedule-state" role="status">
        {scheduledAt ? (
          <>
            <strong>{fill(copy.schedule_at, { belgrade: belgradeMoment(scheduledAt) })}</strong>
            {own && <span> ({fill(copy.schedule_local, { local: own })})</span>}
          </>
        ) : (
          copy.schedule_none
        )}
      </p>
      <label htmlFor="campaign-schedule" className="admin-label">
        {copy.schedule_when}
      </label>
      {error && (
        <p id="campaign-schedule-error" className="admin-field-error">
          {error}
        </p>
      )}
      <input
        id="campaign-schedule"
        type="datetime-local"
        className="admin-input admin-campaign__schedule-input"
        step={60}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error && 'campaign-schedule-error', chosenOwn && 'campaign-schedule-own']
            .filter(Boolean)
            .join(' ') || undefined
        }
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
      />
      {chosenOwn && (
        <p id="campaign-schedule-own" className="admin-hint">
          {fill(copy.schedule_local, { local: chosenOwn })}
        </p>
      )}
      <div className="admin-campaign__actions">
        <button type="button" className="admin-button" aria-disabled={busy} onClick={schedule}>
          {scheduledAt ? copy.schedule_move : copy.schedule_save}
        </button>
        {scheduledAt && (
          <button
            type="button"
            className="admin-button admin-button--quiet"
            aria-disabled={busy}
            onClick={() => void save(null)}
          >
            {copy.schedule_clear}
          </button>
        )}
      </div>
    </fieldset>
  );
}
