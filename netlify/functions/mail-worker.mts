/**
 * Scheduled every minute: finishes contact imports whose run ended early, starts the newsletter issues whose
 * scheduled moment has come (each once, however many runs overlap), sends due mail from the outbox (about
 * 20 s of work at most together, within the scheduled function's time limit), then applies the privacy
 * policy's retention periods. `npm run dev` and `npm run preview` call it every 5 s at /.netlify/functions/mail-worker; Netlify does not expose it by URL.
 */
import type { Config } from '@netlify/functions';
import { startDueCampaigns } from '../../src/server/campaign-schedule.ts';
import { database } from '../../src/server/config.ts';
import { failure } from '../../src/server/http.ts';
import { processOutbox } from '../../src/server/mail/worker.ts';
import { applyRetention } from '../../src/server/retention.ts';
import { resumeImports } from '../../src/server/subscriber-import.ts';

export default async () => {
  try {
    const db = database();
    const start = Date.now();
    // An import whose run ended early goes on first: the confirmation mails it queues then leave in this run.
    const imports = await resumeImports(db, start + 8_000);
    // Due issues start before the outbox round, so their first copies leave in this run.
    const schedule = await startDueCampaigns(db);
    const mail = await processOutbox(db, { deadline: start + 20_000 });
    const retention = await applyRetention(db);
    return Response.json(
      { imports, schedule, mail, retention },
      { headers: { 'cache-control': 'no-store' } },
    );
  } catch (error) {
    return failure('mail-worker', error);
  }
};

export const config: Config = { schedule: '* * * * *' };
