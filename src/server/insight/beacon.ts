/**
 * The beacon a consenting visitor's browser sends once per page (POST /api/collect), checked and reduced to
 * the counters it adds to. What is not a page of the site, out of range or of the wrong shape is refused
 * whole; nothing of the request (address, user-agent) is kept.
 */
import * as z from 'zod/mini';
import { deviceClass, normaliseSearchQuery, normaliseTag, type DeviceClass } from '../../lib/insight.ts';
import { VITAL_MAX, VITALS, vitalBucket, type Vital } from '../../lib/insight-vitals.ts';
import { localePath, splitLocale } from '../../i18n/lang.ts';
import { validate } from '../../lib/schemas.ts';
import { routes } from '../../routes.ts';

/** A beacon is a few hundred bytes; this leaves room for five searches and every vital. */
export const BEACON_MAX_BYTES = 2048;

const tag = z.optional(z.string().check(z.maxLength(200)));
const vital = (metric: Vital) =>
  z.optional(
    z
      .number(`${metric} must be a number.`)
      .check(
        z.gte(0, `${metric} cannot be negative.`),
        z.lte(VITAL_MAX[metric], `${metric} is out of range.`),
      ),
  );

export const beaconSchema = z.strictObject({
  path: z.string('Send the page path.').check(z.maxLength(300)),
  width: z.int('Send the viewport width in pixels.').check(z.gte(1), z.lte(20_000)),
  referrer: z.optional(z.string().check(z.maxLength(253))),
  utm: z.optional(z.strictObject({ source: tag, medium: tag, campaign: tag })),
  events: z.optional(
    z.array(z.literal('brochure', 'Only "brochure" is counted here.')).check(z.maxLength(3)),
  ),
  searches: z.optional(
    z
      .array(
        z.strictObject({
          query: z.string().check(z.maxLength(200)),
          results: z.int().check(z.gte(0), z.lte(100_000)),
        }),
      )
      .check(z.maxLength(5)),
  ),
  vitals: z.optional(
    z.strictObject(
      Object.fromEntries(VITALS.map((metric) => [metric, vital(metric)])) as Record<
        Vital,
        ReturnType<typeof vital>
      >,
    ),
  ),
});

/** What one beacon adds: already normalised, ready for the repository. */
export interface PageVisit {
  path: string;
  device: DeviceClass;
  /** Set when the view came from outside the site (an entry): referring host ('' = direct) and UTM tags. */
  entry?: { referrer: string; source: string; medium: string; campaign: string };
  brochure: boolean;
  searches: { query: string; results: number }[];
  vitals: { metric: Vital; bucket: number }[];
}

/** Pre-rendered filter views of a list count for the list they filter. */
const FILTER_PAGES: [RegExp, string][] = [
  [/^\/blog\/(?:division|topic)\/[a-z0-9-]{1,60}$/, '/blog'],
  [/^\/our-references\/filter(?:\/[a-z0-9&-]{1,60}){1,2}$/, '/our-references'],
];

/** Every public page of the route list (the sitemap's source); the admin screens are not measured. */
const PAGES: ReadonlySet<string> = new Set(routes.filter((r) => r.kind !== 'admin').map((r) => r.path));

/**
 * The page a beacon's path names, or undefined when it is none of the site's pages. A page in another language
 * counts as itself, under its own path: the German twin of a route is a page of its own in every chart.
 * @example sitePage('/blog/gmp/') // '/blog/gmp'
 * @example sitePage('/de/blog/division/pharma') // '/de/blog'
 */
export function sitePage(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  const { lang, path } = splitLocale(decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded);
  const page = PAGES.has(path) ? path : FILTER_PAGES.find(([pattern]) => pattern.test(path))?.[1];
  return page === undefined ? undefined : localePath(lang, page);
}

/** A referring host as it is counted: lower case, without `www.`; undefined when it is not a host name. */
export function referrerHost(value: string): string | undefined {
  const host = value
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
  if (!/^(?=.{1,100}$)[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(host) && host !== 'localhost') return undefined;
  return host;
}

export type BeaconCheck = { ok: true; visit: PageVisit } | { ok: false; fields: Record<string, string> };

/**
 * Validates a parsed beacon body and reduces it to a {@link PageVisit}. `ownHost` is the site's own host:
 * a referrer from it is a navigation inside the site, not an entry.
 */
export function readBeacon(input: unknown, ownHost: string): BeaconCheck {
  const parsed = validate(beaconSchema, input);
  if (!parsed.ok) return parsed;
  const beacon = parsed.data;
  const path = sitePage(beacon.path);
  if (!path) return { ok: false, fields: { path: 'This is not a page of the site.' } };

  let entry: PageVisit['entry'];
  const host = beacon.referrer === undefined ? '' : referrerHost(beacon.referrer);
  if (host === undefined) return { ok: false, fields: { referrer: 'Send the referring host name only.' } };
  const own = referrerHost(ownHost);
  if (host !== own) {
    entry = {
      referrer: host,
      source: normaliseTag(beacon.utm?.source) ?? '',
      medium: normaliseTag(beacon.utm?.medium) ?? '',
      campaign: normaliseTag(beacon.utm?.campaign) ?? '',
    };
  }

  const searches = new Map<string, number>();
  for (const search of beacon.searches ?? []) {
    const query = normaliseSearchQuery(search.query);
    if (query) searches.set(query, search.results);
  }

  return {
    ok: true,
    visit: {
      path,
      device: deviceClass(beacon.width),
      entry,
      brochure: (beacon.events ?? []).includes('brochure'),
      searches: [...searches].map(([query, results]) => ({ query, results })),
      vitals: VITALS.flatMap((metric) => {
        const value = beacon.vitals?.[metric];
        return value === undefined ? [] : [{ metric, bucket: vitalBucket(metric, value) }];
      }),
    },
  };
}

/**
 * Known crawlers, headless browsers, automation and HTTP libraries, by their user-agent. The string is only
 * tested here, never stored or logged.
 */
const BOT_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|headless|phantomjs|puppeteer|playwright|selenium|webdriver|lighthouse|pagespeed|chrome-lighthouse|gtmetrix|pingdom|uptime|monitor|curl\/|wget\/|python-|python\/|httpclient|okhttp|go-http-client|node-fetch|undici|axios|java\/|libwww|scrapy|^mozilla\/5\.0$/i;

/** Whether a request's user-agent is missing or names a bot or an automated browser. */
export function isBot(userAgent: string | null): boolean {
  return !userAgent || userAgent.length < 20 || BOT_AGENT.test(userAgent);
}
