import type { Inquiry } from './api.ts';
import type { InquiriesCopy } from './copy.ts';
import { belgradeSlot, fill, localDateTime } from './format.ts';

type Entry = Inquiry['meetingHistory'][number];

/** One line of the history: what changed, and the meeting's time after it (or its move). */
function describe(entry: Entry, copy: InquiriesCopy): string {
  const at = (iso: string) => belgradeSlot(iso).start;
  if (entry.change === 'rescheduled') {
    return fill(copy.history_rescheduled, { from: at(entry.from!), to: at(entry.start) });
  }
  return fill(copy[`history_${entry.change}`], { start: at(entry.start) });
}

/**
 * A meeting's state changes, oldest first, each with when it happened (in the admin's own time): requested,
 * confirmed, declined, cancelled by the visitor, rescheduled from → to (Belgrade time, as the slot above).
 */
export function MeetingHistory({
  history,
  copy,
}: {
  history: Inquiry['meetingHistory'];
  copy: InquiriesCopy;
}) {
  if (history.length === 0) return null;
  return (
    <section className="admin-inquiry__history" aria-label={copy.history}>
      <h4 className="admin-inquiry__mail-title">{copy.history}</h4>
      <ol className="admin-history">
        {history.map((entry) => (
          <li
            key={`${entry.change}-${entry.at}`}
            className={`admin-history__item admin-history__item--${entry.change}`}
          >
            <time dateTime={entry.at} title={entry.at}>
              {localDateTime(entry.at)}
            </time>{' '}
            <span>{describe(entry, copy)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
