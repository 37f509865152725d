/**
 * The first attempt at a request's mail, right after its transaction committed, so a visitor's
 * acknowledgement leaves within seconds. Whatever this attempt does not deliver, the scheduled worker
 * retries. The worker is imported lazily: it renders React mail templates, which only the function bundles
 * and the test runner compile.
 */
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../http.ts';
import { mailConfigured } from './settings.ts';

/** How long the attempt after a request may take before it leaves the rest to the scheduled worker. */
const ATTEMPT_MS = 8_000;

export function sendSoon(context: RequestContext, db: Db, ids: readonly number[]): void {
  if (ids.length === 0 || !mailConfigured()) return;
  const attempt = import('./worker.ts')
    .then(({ processOutbox }) => processOutbox(db, { ids, deadline: Date.now() + ATTEMPT_MS }))
    .catch((error: unknown) => console.error('[mail] the attempt after the request failed:', error));
  context.waitUntil?.(attempt);
}
