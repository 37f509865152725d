/**
 * POST /api/subscribers/import (bearer, owner or editor; text/csv; ?mode=consented|confirm&source=…&email=…)
 * → 202 {id}; GET /api/subscribers/import/{id} → 200 {state, total, added, updated, skipped, rejected: [{line,
 * reason}]}; POST /api/subscribers/import/{id}/cancel → 200 the import, `cancelled`, 409 when it is not running;
 * GET /api/subscribers/import/{id}/report → 200 text/csv, every row with what became of it.
 */
import type { Config } from '@netlify/functions';
import { routes } from '../../src/server/http.ts';
import {
  cancelImportHandler,
  importReportHandler,
  importStatusHandler,
  startImportHandler,
} from '../../src/server/subscriber-import.ts';

export default routes('subscriber-import', {
  '/api/subscribers/import': { POST: startImportHandler },
  '/api/subscribers/import/:id': { GET: importStatusHandler },
  '/api/subscribers/import/:id/cancel': { POST: cancelImportHandler },
  '/api/subscribers/import/:id/report': { GET: importReportHandler },
});

export const config: Config = {
  path: [
    '/api/subscribers/import',
    '/api/subscribers/import/:id',
    '/api/subscribers/import/:id/cancel',
    '/api/subscribers/import/:id/report',
  ],
};
