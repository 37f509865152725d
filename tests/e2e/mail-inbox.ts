/**
 * The inbox of the mail catcher this run's own preview started. Several previews run side by side and the
 * catcher takes the well-known ports 1025/1080 only when they are free, so a spec never guesses a port: it
 * reads `<E2E_DATA_DIR>.mail.json` (written by scripts/lib/local-services.ts) and checks that every inbox
 * answer carries the same catcher id, so a file left behind by a killed preview can never lead it to another
 * preview's mail.
 */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { CATCHER_HEADER, type CaughtMail } from '../../scripts/lib/mail-catcher.ts';

interface MailFile {
  id: string;
  inboxUrl: string;
}

function mailFile(): MailFile {
  const file = `${E2E_DATA_DIR}.mail.json`;
  let parsed: Partial<MailFile>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<MailFile>;
  } catch (error) {
    throw new Error(`${file} is unreadable: the preview catches mail locally only without SMTP_URL`, {
      cause: error,
    });
  }
  if (!parsed.id || !parsed.inboxUrl) throw new Error(`${file} names no catcher id and inbox`);
  return { id: parsed.id, inboxUrl: parsed.inboxUrl };
}

/** Every mail the preview's catcher holds, oldest first; throws when the inbox is another catcher's. */
export async function caughtMail(request: APIRequestContext): Promise<CaughtMail[]> {
  const { id, inboxUrl } = mailFile();
  const reply = await request.get(`${inboxUrl}/messages`);
  const answeredBy = reply.headers()[CATCHER_HEADER];
  if (answeredBy !== id) {
    throw new Error(
      `${inboxUrl} is not this preview's mail catcher (it answered as ${answeredBy ?? 'nothing known'}, ` +
        `expected ${id}): restart the preview`,
    );
  }
  expect(reply.status()).toBe(200);
  return (await reply.json()) as CaughtMail[];
}

/** The first caught mail that matches, waiting for the mail worker if it has not arrived yet. */
export async function waitForMail(
  request: APIRequestContext,
  match: (mail: CaughtMail) => boolean,
): Promise<CaughtMail> {
  // Once outside the poll: an inbox of another catcher fails at once, not after a minute of retries.
  let found = (await caughtMail(request)).find(match);
  if (found) return found;
  await expect
    .poll(
      async () => {
        found = (await caughtMail(request)).find(match);
        return Boolean(found);
      },
      { timeout: 60_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  return found!;
}
