/**
 * Scheduled every minute: sends due mail from the outbox (about 20 s of work at most, within the scheduled
 * function's time limit), then applies the privacy policy's retention periods. `npm run dev` and
 * `npm run preview` call it every 5 s at /.netlify/functions/mail-worker; Netlify does not expose it by URL.
 */
import type { Config } from '@netlify/functions';
import { database } from '../../src/server/config.ts';
import { failure } from '../../src/server/http.ts';
import { processOutbox } from '../../src/server/mail/worker.ts';
import { applyRetention } from '../../src/server/retention.ts';

export default async () => {
  try {
    const db = database();
    const mail = await processOutbox(db, { deadline: Date.now() + 20_000 });
    const retention = await applyRetention(db);
    return Response.json({ mail, retention }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return failure('mail-worker', error);
  }
};

export const config: Config = { schedule: '* * * * *' };
