/**
 * Insight (issue 24): GET /api/insights (the admin Overview's figures) and GET /newsletter/click/{id}?url=…&sig=…
 * (a counted, signed link in a newsletter issue). The beacon, POST /api/collect, is in collect.ts.
 */
import { requireAdmin, ROLES_FOR } from '../auth.ts';
import { database } from '../config.ts';
import { HttpError, json, type Handler } from '../http.ts';
import { copy } from '../mail/copy.ts';
import { verifyCampaignClick } from '../mail/links.ts';
import { linkPageResponse } from '../pages/LinkPage.tsx';
import { onlyParams } from '../query.ts';
import { countNewsletterEvent, readInsights, utcDay } from '../repositories/insight.ts';
import { isBot } from './beacon.ts';

/** The longest range the Overview reads: the 25 months the counters are kept. */
const MAX_RANGE_DAYS = 762;
const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` calendar day, or a 400 naming the parameter. */
function dayParam(params: URLSearchParams, name: 'from' | 'to', fallback: string): string {
  const value = params.get(name);
  if (value === null) return fallback;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || utcDay(date) !== value) {
    throw new HttpError(400, 'invalid_query', `Send ${name} as a calendar day, YYYY-MM-DD.`);
  }
  return value;
}

/**
 * GET /api/insights?from=YYYY-MM-DD&to=YYYY-MM-DD (owner or editor) → 200 the counters of those days
 * (inclusive, UTC); without them, the last 30 days up to today.
 */
export const insightsHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.insights, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['from', 'to']);
  const today = utcDay();
  const to = dayParam(params, 'to', today);
  const from = dayParam(params, 'from', utcDay(new Date(Date.parse(to) - 29 * DAY_MS)));
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (span < 1) throw new HttpError(400, 'invalid_query', 'from must not be after to.');
  if (span > MAX_RANGE_DAYS) {
    throw new HttpError(
      400,
      'invalid_query',
      `Ask for at most ${MAX_RANGE_DAYS} days: counters are kept 25 months.`,
    );
  }
  return json(200, await readInsights(db, { from, to }));
};

const invalidLink = () => {
  const page = copy.pages.invalid;
  return linkPageResponse(400, {
    eyebrow: copy.pages.eyebrow,
    title: page.title,
    paragraphs: page.text,
    next: { href: '/', label: copy.pages.home },
  });
};

/**
 * GET /newsletter/click/{id}?url=…&sig=… → 302 to `url` at once, after counting one click for the issue and
 * link. A link whose target or issue was changed (the signature no longer matches) → 400 page. Bots (mail
 * scanners open every link) and HEAD requests are forwarded without counting; a counting failure never keeps
 * the reader from the article.
 */
export const clickHandler: Handler = async (req, context) => {
  const params = new URL(req.url).searchParams;
  const names = [...params.keys()].sort().join(',');
  const id = context.params.id ?? '';
  const url = params.get('url') ?? '';
  if (names !== 'sig,url' || !/^[1-9]\d{0,9}$/.test(id) || !/^https?:\/\/[^\s]+$/i.test(url)) {
    return invalidLink();
  }
  const campaignId = Number(id);
  if (!verifyCampaignClick(campaignId, url, params.get('sig') ?? '')) return invalidLink();
  if (req.method !== 'HEAD' && !isBot(req.headers.get('user-agent'))) {
    try {
      await countNewsletterEvent(database(), campaignId, 'click', url);
    } catch (error) {
      console.error('[newsletter-click] not counted', error instanceof Error ? error.message : error);
    }
  }
  return new Response(null, {
    status: 302,
    headers: {
      location: url,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex, nofollow',
    },
  });
};
