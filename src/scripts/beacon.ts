/**
 * The page beacon of a visitor who allowed cookies (issue 24), loaded by measure.ts or by the consent
 * controls. It gathers what the page reports (Core Web Vitals through the lazy web-vitals module, a brochure
 * download, site searches with their result count) and sends it once, when the page is hidden or left, with
 * `navigator.sendBeacon` to the site's own /api/collect. It stores nothing in the browser and sends no
 * identifier; automated browsers (`navigator.webdriver`) send nothing.
 */
import { CONSENT_KEY, CONSENT_VALUE } from '../lib/consent.ts';
import { normaliseSearchQuery } from '../lib/insight.ts';
import { reportWebVitals } from '../lib/web-vitals.ts';

/** What site search announces after each search: `{ query, results }` (src/scripts/search-panel.ts). */
export const SEARCH_EVENT = 'korvel:search';
const MAX_SEARCHES = 5;

interface Beacon {
  path: string;
  width: number;
  referrer?: string;
  utm?: { source?: string; medium?: string; campaign?: string };
  events?: 'brochure'[];
  searches?: { query: string; results: number }[];
  vitals: Record<string, number>;
}

let beacon: Beacon | undefined;
let sent = false;

/** The page as it was opened: path, viewport width, and where the visitor came from. */
function openPage(): Beacon {
  const page: Beacon = { path: location.pathname, width: window.innerWidth, vitals: {} };
  if (document.referrer) {
    try {
      page.referrer = new URL(document.referrer).hostname;
    } catch {
      // An unreadable referrer counts as a direct visit.
    }
  }
  const params = new URLSearchParams(location.search);
  const utm = {
    source: params.get('utm_source') ?? undefined,
    medium: params.get('utm_medium') ?? undefined,
    campaign: params.get('utm_campaign') ?? undefined,
  };
  if (utm.source || utm.medium || utm.campaign) page.utm = utm;
  return page;
}

/** Keeps the last few searches; a query typed further (or corrected) replaces the one it grew from. */
function addSearch(query: string, results: number) {
  const normalised = normaliseSearchQuery(query);
  if (!beacon || !normalised) return;
  const searches = (beacon.searches ??= []);
  const last = searches.at(-1);
  if (last && (normalised.startsWith(last.query) || last.query.startsWith(normalised))) searches.pop();
  searches.push({ query: normalised, results });
  if (searches.length > MAX_SEARCHES) searches.shift();
}

/** Whether the consent is still stored: withdrawn in the preference centre, this page sends nothing either. */
function consented(): boolean {
  try {
    return localStorage.getItem(CONSENT_KEY) === CONSENT_VALUE;
  } catch {
    return false;
  }
}

function send() {
  if (sent || !beacon || !consented()) return;
  sent = true;
  navigator.sendBeacon('/api/collect', JSON.stringify(beacon));
}

function start() {
  if (beacon || navigator.webdriver || typeof navigator.sendBeacon !== 'function') return;
  beacon = openPage();
  void reportWebVitals((metric) => {
    beacon!.vitals[metric.name] = metric.value;
  });
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[download]');
    if (link && /\.pdf$/i.test(new URL((link as HTMLAnchorElement).href).pathname))
      beacon!.events = ['brochure'];
  });
  document.addEventListener(SEARCH_EVENT, (event) => {
    const { query, results } = (event as CustomEvent<{ query: string; results: number }>).detail;
    addSearch(query, results);
  });
  // Leaving or hiding the page: browsers fire this after pagehide, and web-vitals finalises CLS, INP and LCP
  // in a capturing listener on window, which runs before this one on document.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send();
  });
  // A page restored from the back/forward cache is a new view of it.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    beacon = { ...openPage(), vitals: {} };
    sent = false;
  });
}

start();
