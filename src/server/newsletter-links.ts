/**
 * GET and POST /newsletter/confirm?token=… and /newsletter/unsubscribe?token=… — the pages behind the links
 * in newsletter mail. Mail security scanners open every link, so a GET only shows what the link would do
 * and a button; the POST (that button, or a mail provider's RFC 8058 one-click POST) makes the change.
 * Tampered, expired and used links get a page with a 4xx status and change nothing.
 */
import { localePath, splitLocale, type Lang } from '../i18n/lang.ts';
import { DbUnavailableError } from './db/index.ts';
import { database } from './config.ts';
import { HttpError, readText, type Handler, type RequestContext } from './http.ts';
import { mailCopy } from './mail/copy.ts';
import { sendSoon } from './mail/kick.ts';
import { addressTag, linkTokenOf, verifyLinkToken, type LinkClaims, type LinkPurpose } from './mail/links.ts';
import { linkPageResponse, type LinkPageContent } from './pages/LinkPage.tsx';
import { countConversion, countNewsletterEvent } from './repositories/insight.ts';
import { enqueueMail } from './repositories/outbox.ts';
import {
  confirmSubscriber,
  findSubscriber,
  unsubscribe,
  type LinkOutcome,
} from './repositories/subscribers.ts';

type Pages = ReturnType<typeof mailCopy>['pages'];
type PageKey = Exclude<keyof Pages, 'eyebrow' | 'home' | 'sign_up' | 'privacy' | 'preferences'>;

/** RFC 8058's body is `List-Unsubscribe=One-Click`; our own button sends an empty form. Nothing else is read. */
const LINK_BODY_LIMIT = 4 * 1024;
const SIGN_UP = '/#footer-newsletter-title';

/** One of the newsletter's link pages (also the preference page's invalid, gone and unavailable answers). */
export function linkPage(status: number, lang: Lang, key: PageKey, action?: string): Response {
  const pages = mailCopy(lang).pages;
  const content = pages[key] as { title: string; text: string[]; button?: string };
  const next =
    key === 'expired' || key === 'gone_confirm'
      ? { href: SIGN_UP, label: pages.sign_up }
      : { href: '/', label: pages.home };
  const body: LinkPageContent = {
    eyebrow: pages.eyebrow,
    title: content.title,
    paragraphs: content.text,
    next,
    ...(action && content.button && { form: { action, button: content.button } }),
    lang,
  };
  return linkPageResponse(status, body);
}

type Outcome = { status: number; page: PageKey; showForm?: boolean };

/** The links this module answers; the preference page has its own (src/server/newsletter-preferences.tsx). */
type ActionPurpose = Exclude<LinkPurpose, 'preferences'>;

const AFTER: Record<ActionPurpose, Record<LinkOutcome, Outcome>> = {
  confirm: {
    done: { status: 200, page: 'confirmed' },
    already: { status: 409, page: 'already_confirmed' },
    gone: { status: 410, page: 'gone_confirm' },
  },
  unsubscribe: {
    done: { status: 200, page: 'unsubscribed' },
    already: { status: 410, page: 'gone_unsubscribe' },
    gone: { status: 410, page: 'gone_unsubscribe' },
  },
};

/** What a GET shows: the button while the link can still act, otherwise why not. */
async function preview(purpose: ActionPurpose, subscriberId: number, tag: string): Promise<Outcome> {
  const row = await findSubscriber(database(), subscriberId);
  if (!row || addressTag(row.email) !== tag) return AFTER[purpose].gone;
  if (purpose === 'confirm' && row.status === 'confirmed') return AFTER.confirm.already;
  // A link from before a bounce or complaint confirms nothing (a new sign-up does); it still unsubscribes, also
  // once that new sign-up is pending, as its POST does (the row would still get a confirmation mail).
  if (purpose === 'confirm' && row.status !== 'pending') return AFTER.confirm.gone;
  return { status: 200, page: purpose, showForm: true };
}

async function act(
  purpose: ActionPurpose,
  { subscriberId, tag, campaignId }: LinkClaims,
  context: RequestContext,
): Promise<Outcome> {
  const db = database();
  const { outcome, mailIds } = await db.transaction(async (tx) => {
    if (purpose === 'unsubscribe') {
      const result = await unsubscribe(tx, subscriberId, tag);
      // Counted per issue when the link came in one: a number, never who left.
      if (result === 'done' && campaignId) await countNewsletterEvent(tx, campaignId, 'unsubscribe');
      return { outcome: result, mailIds: [] };
    }
    const result = await confirmSubscriber(tx, subscriberId, tag);
    if (result !== 'done') return { outcome: result, mailIds: [] };
    await countConversion(tx, 'confirmed');
    const subscriber = await findSubscriber(tx, subscriberId);
    const ids = await enqueueMail(tx, [
      {
        key: `newsletter-welcome:${subscriberId}`,
        template: 'newsletter-welcome',
        to: subscriber!.email,
        subscriberId,
      },
    ]);
    return { outcome: result, mailIds: ids };
  });
  await sendSoon(context, db, mailIds);
  return AFTER[purpose][outcome];
}

function linkHandlers(purpose: ActionPurpose): { GET: Handler; POST: Handler } {
  const respond =
    (method: 'GET' | 'POST'): Handler =>
    async (req, context) => {
      // The mail sent the reader to the page of their language (`/de/newsletter/…` for German).
      const { lang } = splitLocale(new URL(req.url).pathname);
      try {
        if (method === 'POST') await readText(req, LINK_BODY_LIMIT);
        const token = linkTokenOf(req);
        const check = token ? await verifyLinkToken(purpose, token) : undefined;
        if (!check?.ok)
          return linkPage(check?.reason === 'expired' ? 410 : 400, lang, check?.reason ?? 'invalid');
        const { subscriberId, tag } = check.claims;
        const outcome =
          method === 'GET'
            ? await preview(purpose, subscriberId, tag)
            : await act(purpose, check.claims, context);
        const action = `${localePath(lang, `/newsletter/${purpose}`)}?token=${encodeURIComponent(token!)}`;
        return linkPage(outcome.status, lang, outcome.page, outcome.showForm ? action : undefined);
      } catch (error) {
        if (error instanceof DbUnavailableError) {
          console.error(`[newsletter-${purpose}] database unavailable: ${error.message}`);
          return linkPage(503, lang, 'unavailable');
        }
        if (error instanceof HttpError && error.status === 413) return linkPage(413, lang, 'invalid');
        throw error;
      }
    };
  return { GET: respond('GET'), POST: respond('POST') };
}

export const confirmLinkHandlers = linkHandlers('confirm');
export const unsubscribeLinkHandlers = linkHandlers('unsubscribe');
