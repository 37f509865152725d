/**
 * Scheduled issues (issue 36): the check of a requested moment, the activity-log lines of scheduling,
 * rescheduling and unscheduling, and the start of due drafts by the scheduled worker.
 *
 * A due draft starts through the same {@link startSending} as "Send" in the admin, one transaction per issue:
 * its `UPDATE … WHERE status = 'draft' AND scheduled_at <= now()` takes the row's lock, so when two worker runs
 * overlap the second waits, finds the issue no longer a draft and starts nothing. Only the run that started it
 * logs the start, in the same transaction. A run after an outage finds every draft whose moment passed while
 * nothing ran and starts it then; the log line and the issue itself (`startDelaySeconds`) say how late.
 */
import type { Db, Queryable } from './db/index.ts';
import { HttpError } from './http.ts';
import { deliverability } from './mail/suppression.ts';
import { recordActivity } from './repositories/activity.ts';
import { dueCampaigns, NoRecipients, startSending, unscheduleDue } from './repositories/campaigns.ts';
import { FIRM_TIME_ZONE } from '../lib/firm-time.ts';

/** How far ahead an issue can be scheduled. */
export const SCHEDULE_HORIZON_DAYS = 366;

/**
 * A start up to this many seconds after the planned moment is the worker's ordinary pace (it runs every
 * minute); a later one is called late in the log.
 */
export const ON_TIME_SECONDS = 120;

const belgrade = new Intl.DateTimeFormat('en-GB', {
  timeZone: FIRM_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** A moment as the log states it: Belgrade time, where the firm works, and UTC. */
export const logMoment = (moment: Date | string) =>
  `${belgrade.format(new Date(moment))} (${new Date(moment).toISOString().slice(0, 16)}Z)`;

/** "3 h 12 min", "45 s": a delay in the largest units that say it. */
export function delayText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (seconds < 60) return `${seconds} s`;
  return [days && `${days} d`, hours && `${hours} h`, minutes && `${minutes} min`].filter(Boolean).join(' ');
}

/**
 * The schedule a create or update asks for: a Date to (re)schedule, null to unschedule, undefined to leave it.
 * A moment that has passed or lies beyond the horizon is a 400.
 */
export function requestedSchedule(
  value: string | null | undefined,
  now = new Date(),
): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const moment = new Date(value);
  const refuse = (message: string) =>
    new HttpError(400, 'validation_failed', 'Check the highlighted fields and send the campaign again.', {
      fields: { scheduledAt: message },
    });
  if (moment.getTime() <= now.getTime()) throw refuse('Choose a time that is still ahead.');
  if (moment.getTime() > now.getTime() + SCHEDULE_HORIZON_DAYS * 86_400_000)
    throw refuse(`Choose a time within the next ${SCHEDULE_HORIZON_DAYS} days.`);
  return moment;
}

/** Logs a change of an issue's schedule; nothing when it stayed as it was. */
export async function logScheduleChange(
  db: Queryable,
  entry: { actor: { id: number; email: string }; ip?: string; id: number },
  before: string | null,
  after: string | null,
): Promise<void> {
  if (before === after) return;
  const target =
    after === null
      ? `campaign ${entry.id}, was ${logMoment(before!)}`
      : before === null
        ? `campaign ${entry.id} for ${logMoment(after)}`
        : `campaign ${entry.id} for ${logMoment(after)}, was ${logMoment(before)}`;
  await recordActivity(db, {
    actor: entry.actor,
    action:
      after === null ? 'campaign.unschedule' : before === null ? 'campaign.schedule' : 'campaign.reschedule',
    target,
    ip: entry.ip,
  });
}

export interface ScheduleRun {
  /** Issues this run started. */
  started: number[];
  /** Due issues that could not start and were taken off the schedule (logged with the reason). */
  unscheduled: number[];
}

/** Why a due issue did not start, for the log. */
async function giveUp(db: Db, id: number, scheduledAt: Date, reason: string, run: ScheduleRun) {
  if (!(await unscheduleDue(db, id))) return;
  run.unscheduled.push(id);
  await recordActivity(db, {
    actor: null,
    action: 'campaign.schedule_failed',
    target: `campaign ${id}, planned for ${logMoment(scheduledAt)}, not started: ${reason}; taken off the schedule`,
  });
}

/**
 * Starts every draft whose scheduled moment has come, each exactly once however many runs overlap. A draft that
 * cannot start (nobody of its language is confirmed, or complaints are above the rate at which only the owner
 * may send) is taken off the schedule with the reason in the log, so it does not fail again every minute.
 */
export async function startDueCampaigns(db: Db): Promise<ScheduleRun> {
  const run: ScheduleRun = { started: [], unscheduled: [] };
  const due = await dueCampaigns(db);
  if (due.length === 0) return run;
  const health = await deliverability(db);
  for (const { id, lang, scheduledAt } of due) {
    if (health.sendNeedsConfirmation) {
      const rate = `${((health.complaintRate ?? 0) * 100).toFixed(2)} %`;
      await giveUp(db, id, scheduledAt, `complaints over ${health.days} days are ${rate}, above 0.3 %`, run);
      continue;
    }
    try {
      const started = await db.transaction(async (tx) => {
        const result = await startSending(tx, id, { scheduled: true });
        if (!result || 'notDraft' in result) return false;
        const late = Math.max(0, Math.round((Date.now() - scheduledAt.getTime()) / 1000));
        const recipients = `${result.recipients} ${result.recipients === 1 ? 'recipient' : 'recipients'}`;
        const when =
          late > ON_TIME_SECONDS
            ? `${delayText(late)} late (the scheduled runs did not run meanwhile)`
            : 'on time';
        await recordActivity(tx, {
          actor: null,
          action: 'campaign.scheduled_start',
          target: `campaign ${id}, ${recipients}, planned for ${logMoment(scheduledAt)}, started ${when}`,
        });
        return true;
      });
      if (started) run.started.push(id);
    } catch (error) {
      if (!(error instanceof NoRecipients)) throw error;
      const language = lang === 'de' ? 'German' : 'English';
      await giveUp(db, id, scheduledAt, `there are no confirmed ${language} subscribers`, run);
    }
  }
  return run;
}
