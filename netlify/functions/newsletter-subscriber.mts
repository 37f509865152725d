/**
 * One subscriber (bearer, owner or editor): GET /api/newsletter/{id} → 200 the record; GET
 * /api/newsletter/{id}/export → 200 the record as a JSON download (GDPR Art. 15/20); DELETE /api/newsletter/{id}
 * → 204, the person's data erased and the address's hash kept on the suppression list (Art. 17). 404 when there is
 * no such subscriber.
 */
import type { Config } from '@netlify/functions';
import { routes } from '../../src/server/http.ts';
import {
  eraseSubscriberHandler,
  exportSubscriberHandler,
  subscriberRecordHandler,
} from '../../src/server/newsletter.ts';

export default routes('newsletter-subscriber', {
  '/api/newsletter/:id': { GET: subscriberRecordHandler, DELETE: eraseSubscriberHandler },
  '/api/newsletter/:id/export': { GET: exportSubscriberHandler },
});

export const config: Config = { path: ['/api/newsletter/:id', '/api/newsletter/:id/export'] };
