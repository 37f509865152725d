import { useEffect, useId, useState } from 'react';
import { fetchDeliverability, isAbort, isAuthError, type Deliverability } from './api.ts';
import type { SuppressionsCopy } from './copy.ts';
import { fill, percent } from './format.ts';

export interface SummaryProps {
  token: string;
  copy: SuppressionsCopy;
  onUnauthorized: () => void;
  /** Changes when the figures should be read again (after a lift). */
  version?: number;
}

/**
 * The last 30 days' hard-bounce and complaint rates, with a warning above 2 % bounces or 0.1 % complaints
 * (thresholds.ts). Shown above the suppression list and the newsletter issues.
 */
export function DeliverabilitySummary({ token, copy, onUnauthorized, version = 0 }: SummaryProps) {
  const id = useId();
  const [figures, setFigures] = useState<Deliverability | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchDeliverability(token, controller.signal).then(setFigures, (error: unknown) => {
      if (isAbort(error)) return;
      if (isAuthError(error)) onUnauthorized();
      // The figures are a help, not the tab: a failure leaves them out and the list still works.
      else console.error('The deliverability figures failed to load');
    });
    return () => controller.abort();
  }, [token, onUnauthorized, version]);

  if (!figures) return null;
  const warnings = [
    figures.warnings.bounces && copy.warn_bounces,
    figures.warnings.complaints && copy.warn_complaints,
  ].filter((text): text is string => Boolean(text));
  return (
    <section className="admin-deliverability" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="admin-campaign__subheading">
        {copy.rates_title}
      </h3>
      {figures.sent === 0 ? (
        <p className="admin-muted">{copy.rates_none}</p>
      ) : (
        <ul className="admin-deliverability__figures">
          <li>
            {fill(copy.rates_bounces, {
              count: figures.hardBounces,
              sent: figures.sent,
              rate: percent(figures.bounceRate),
            })}
          </li>
          <li>
            {fill(copy.rates_complaints, {
              count: figures.complaints,
              accepted: figures.accepted,
              rate: percent(figures.complaintRate),
            })}
          </li>
        </ul>
      )}
      {warnings.map((text) => (
        <p key={text} className="admin-notice admin-notice--plain admin-notice--warn" role="status">
          {text}
        </p>
      ))}
    </section>
  );
}
