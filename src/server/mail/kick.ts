/**
 * The first attempt at a request's mail, right after its transaction committed, so a visitor's
 * acknowledgement leaves within seconds. Whatever this attempt does not deliver, the scheduled worker
 * retries.
 *
 * The worker is imported lazily (it renders React mail templates, which only the function bundles and the
 * test runner compile), but before the reply, and React Email renders once so that the react-dom/server it
 * loads on first use is loaded too — from React Email's own location: a function that also renders a page
 * (the link pages) has a second, bundled copy, and warming that one does not help. The local function
 * runtime deletes a request's bundle as soon as it has answered, so work handed to waitUntil must not load
 * modules. In production this only moves a cold load before the reply.
 */
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../http.ts';
import { mailConfigured } from './settings.ts';

/** How long the attempt after a request may take before it leaves the rest to the scheduled worker. */
const ATTEMPT_MS = 8_000;

let warming: Promise<unknown> | undefined;
/** Renders an empty paragraph once per process, which loads everything React Email renders with. */
const warmRenderer = () =>
  (warming ??= Promise.all([import('@react-email/render'), import('react')]).then(([email, react]) =>
    email.render(react.createElement('p')),
  ));

/** The worker, with everything it renders with loaded. */
const loadWorker = () => Promise.all([import('./worker.ts'), warmRenderer()]).then(([worker]) => worker);

/** Hands a worker run to `waitUntil`, after loading the mail code before the reply. Never throws. */
async function runSoon(context: RequestContext, db: Db, ids?: readonly number[]): Promise<void> {
  if (!mailConfigured()) return;
  try {
    const { processOutbox } = await loadWorker();
    const run = processOutbox(db, { ids, deadline: Date.now() + ATTEMPT_MS }).catch((error: unknown) =>
      console.error('[mail] the attempt after the request failed:', error),
    );
    context.waitUntil?.(run);
  } catch (error) {
    console.error('[mail] the mail code could not be loaded; the scheduled worker will send it:', error);
  }
}

/** The first attempt at the mails `ids`. The request has committed, so they are safe whatever happens here. */
export async function sendSoon(context: RequestContext, db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await runSoon(context, db, ids);
}

/**
 * A run of the whole worker after a request that queued many mails (a newsletter issue's send): its first
 * batch leaves now instead of at the next scheduled run.
 */
export const workSoon = (context: RequestContext, db: Db): Promise<void> => runSoon(context, db);

/**
 * Work whose outcome must not show in the reply or its timing (a password-reset request, which finds an
 * account or not): the mail code loads before the reply whatever the work will find, and the work, then the
 * first attempt at the mail it queued, run after the reply. Without `waitUntil` (a script) it runs before.
 */
export async function afterReply(
  context: RequestContext,
  db: Db,
  work: () => Promise<readonly number[]>,
): Promise<void> {
  const worker = mailConfigured()
    ? await loadWorker().catch((error: unknown) => {
        console.error('[mail] the mail code could not be loaded; the scheduled worker will send it:', error);
        return undefined;
      })
    : undefined;
  const run = work()
    .then(async (ids) => {
      if (worker && ids.length > 0)
        await worker.processOutbox(db, { ids, deadline: Date.now() + ATTEMPT_MS });
    })
    .catch((error: unknown) => console.error('[mail] the work after the reply failed:', error));
  if (context.waitUntil) context.waitUntil(run);
  else await run;
}
