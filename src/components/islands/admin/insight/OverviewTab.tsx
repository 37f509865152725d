import { useCallback, useEffect, useId, useMemo, useState, type SubmitEvent } from 'react';
import { fetchInsights, isAbort, isAuthError, type Insights } from '../api.ts';
import type { OverviewCopy } from '../copy.ts';
import { calendarDate, fill } from '../format.ts';
import { LoadFailed } from '../ListFallback.tsx';
import type { TabProps } from '../tab-props.ts';
import type { ToastTone } from '../Toasts.tsx';
import { InsightSection } from './InsightSection.tsx';
import { overviewSections } from './sections.tsx';

export interface OverviewProps {
  token: string;
  copy: OverviewCopy;
  errorHeading: string;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
}

const PRESETS = [7, 30, 90] as const;
type Preset = (typeof PRESETS)[number] | 'custom';
/** The counters are kept 25 months (the retention job); the server refuses longer ranges. */
const MAX_DAYS = 762;
const DAY_MS = 86_400_000;

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);
/** The last `days` UTC days up to today. */
const lastDays = (days: number) => ({
  from: utcDay(Date.now() - (days - 1) * DAY_MS),
  to: utcDay(Date.now()),
});

type Load = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; data: Insights };

/**
 * The admin Overview (issue 24): visits, pages, devices, referrers and campaigns, the lead funnel, subscriber
 * growth, newsletter issues, Core Web Vitals and searches without results, for 7, 30 or 90 days or a chosen
 * range. Each figure is a chart with its data table and CSV export.
 */
export function OverviewTab({ token, copy, errorHeading, notify, onUnauthorized }: OverviewProps) {
  const id = useId();
  const [preset, setPreset] = useState<Preset>(30);
  const [range, setRange] = useState(() => lastDays(30));
  const [draft, setDraft] = useState(range);
  const [draftError, setDraftError] = useState(false);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    fetchInsights(token, range, controller.signal)
      .then((data) => setLoad({ status: 'ready', data }))
      .catch((error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setLoad({ status: 'failed' });
      });
    return () => controller.abort();
  }, [token, range, attempt, onUnauthorized]);

  const choose = (next: Preset) => {
    setPreset(next);
    if (next !== 'custom') {
      const days = lastDays(next);
      setRange(days);
      setDraft(days);
      setDraftError(false);
    }
  };

  const applyCustom = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const span = (Date.parse(draft.to) - Date.parse(draft.from)) / DAY_MS + 1;
    const valid = Number.isFinite(span) && span >= 1 && span <= MAX_DAYS;
    setDraftError(!valid);
    if (valid) setRange({ ...draft });
  };

  const sections = useMemo(
    () => (load.status === 'ready' ? overviewSections(load.data, copy) : []),
    [load, copy],
  );

  return (
    <div className="insight-overview">
      <div className="insight-overview__head">
        <div>
          <h2 id={`${id}-heading`} className="admin-campaigns__title">
            {copy.heading}
          </h2>
          <p className="admin-campaigns__intro">{copy.intro}</p>
        </div>
      </div>

      <div className="insight-range">
        <div className="insight-range__presets" role="group" aria-label={copy.range_label}>
          {[...PRESETS, 'custom' as const].map((value) => (
            <button
              key={value}
              type="button"
              className="insight-range__preset"
              aria-pressed={preset === value}
              onClick={() => choose(value)}
            >
              {copy[`range_${value}`]}
            </button>
          ))}
        </div>
        {preset === 'custom' && (
          <form className="insight-range__custom" onSubmit={applyCustom} noValidate>
            <div className="insight-range__field">
              <label className="admin-label" htmlFor={`${id}-from`}>
                {copy.from}
              </label>
              <input
                id={`${id}-from`}
                className="admin-input"
                type="date"
                value={draft.from}
                max={draft.to}
                required
                aria-invalid={draftError || undefined}
                aria-describedby={draftError ? `${id}-range-error` : undefined}
                onChange={(event) => setDraft({ ...draft, from: event.target.value })}
              />
            </div>
            <div className="insight-range__field">
              <label className="admin-label" htmlFor={`${id}-to`}>
                {copy.to}
              </label>
              <input
                id={`${id}-to`}
                className="admin-input"
                type="date"
                value={draft.to}
                min={draft.from}
                required
                aria-invalid={draftError || undefined}
                aria-describedby={draftError ? `${id}-range-error` : undefined}
                onChange={(event) => setDraft({ ...draft, to: event.target.value })}
              />
            </div>
            <button type="submit" className="admin-button admin-button--primary">
              {copy.apply}
            </button>
            {draftError && (
              <p id={`${id}-range-error`} className="insight-range__error" role="alert">
                {copy.range_invalid}
              </p>
            )}
          </form>
        )}
        <p className="admin-summary" aria-live="polite">
          {fill(copy.range_summary, { from: calendarDate(range.from), to: calendarDate(range.to) })}
        </p>
      </div>

      {load.status === 'loading' && (
        <p className="admin-status" role="status">
          {copy.loading}
        </p>
      )}
      {load.status === 'failed' && <LoadFailed copy={copy} onRetry={retry} />}
      {load.status === 'ready' && (
        <div className="insight-grid">
          {sections.map((section) => (
            <InsightSection
              key={section.name}
              {...section}
              range={range}
              copy={copy}
              errorHeading={errorHeading}
              notify={notify}
            />
          ))}
        </div>
      )}
    </div>
  );
}

/** The Overview as a panel tab: its own copy from the panel's. */
export const OverviewPanel = ({ copy, token, notify, onUnauthorized }: TabProps) => (
  <OverviewTab
    token={token}
    copy={copy.overview}
    errorHeading={copy.errorHeading}
    notify={notify}
    onUnauthorized={onUnauthorized}
  />
);
