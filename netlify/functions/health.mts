/**
 * GET /api/health → 200 {"ok": true, "mail": "configured" | "unconfigured", "outbox": {pending, failed,
 * oldestPendingSeconds}}: whether mail can leave (never the SMTP URL itself), how much waits, and since when.
 * 503 when the database cannot be reached.
 */
import type { Config } from '@netlify/functions';
import { database } from '../../src/server/config.ts';
import { json, route } from '../../src/server/http.ts';
import { mailConfigured } from '../../src/server/mail/settings.ts';
import { outboxStats } from '../../src/server/repositories/outbox.ts';

export default route('health', {
  GET: async () =>
    json(200, {
      ok: true,
      mail: mailConfigured() ? 'configured' : 'unconfigured',
      outbox: await outboxStats(database()),
    }),
});

export const config: Config = { path: '/api/health' };
