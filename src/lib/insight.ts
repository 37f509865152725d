/**
 * What the consent-based measurement (issue 24) counts, shared by the beacon, the collect function and the
 * admin Overview: device classes, conversions, search-query normalisation and the Core Web Vitals histograms
 * from which a 75th percentile is read. Pure and browser-safe.
 */

/** Device class by viewport width in CSS pixels: SPEC's 768 px narrow breakpoint, then the desktop layout. */
export type DeviceClass = 'phone' | 'tablet' | 'desktop';
export const DEVICE_CLASSES: readonly DeviceClass[] = ['phone', 'tablet', 'desktop'];

/** @example deviceClass(375) // 'phone' */
export function deviceClass(viewportWidth: number): DeviceClass {
  if (viewportWidth <= 768) return 'phone';
  return viewportWidth < 1200 ? 'tablet' : 'desktop';
}

/** Conversions: the first four are counted by their functions, `brochure` by the beacon. */
export const CONVERSIONS = ['contact', 'meeting', 'signup', 'confirmed', 'brochure'] as const;
export type Conversion = (typeof CONVERSIONS)[number];

/** The longest search query kept; longer ones are cut at a word boundary. */
export const SEARCH_QUERY_MAX = 80;

/**
 * Looks like personal data rather than a topic: an e-mail address, a run of seven or more digits (a phone,
 * account or order number; a standard's number such as 14644-1 stays), or a street address ("12 Baker
 * Street", "Bulevar kralja Aleksandra 73").
 */
const PERSONAL = [
  /@/,
  /\d(?:[\s./()-]?\d){6,}/,
  /\b\d+[a-z]?\s+(?:[a-zà-ž'-]+\s+){0,3}(?:street|st|road|rd|avenue|ave|lane|boulevard|blvd|square|ulica|bulevar|trg|straße|strasse)\b/i,
  /\b(?:street|ulica|bulevar|trg|straße|strasse)\s+(?:\S+\s+){1,3}\d+/i,
];

/**
 * A search query as it is counted: trimmed, lower case, control and format characters and inner whitespace
 * collapsed to one space, at most
 * {@link SEARCH_QUERY_MAX} characters; `undefined` when nothing is left or it looks like personal data.
 * @example normaliseSearchQuery('  Annex   1 ') // 'annex 1'
 * @example normaliseSearchQuery('ana@firm.example') // undefined
 */
export function normaliseSearchQuery(query: string): string | undefined {
  const text = query
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  // "(other)" is what the counters call the queries past a day's cap (src/server/repositories/insight.ts).
  if (!text || text === '(other)' || PERSONAL.some((pattern) => pattern.test(text))) return undefined;
  if (text.length <= SEARCH_QUERY_MAX) return text;
  const cut = text.slice(0, SEARCH_QUERY_MAX);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : SEARCH_QUERY_MAX);
}

/**
 * A UTM value as it is counted: lower case, at most 60 characters of letters, digits, space, `_`, `.`, `-`
 * and `+`; `undefined` for anything else (a value carrying an address or an identifier is not kept).
 * @example normaliseTag(' LinkedIn ') // 'linkedin'
 */
export function normaliseTag(value: string | null | undefined): string | undefined {
  const text = value?.trim().toLowerCase();
  if (!text || text.length > 60 || !/^[\p{L}\p{N} _.+-]+$/u.test(text) || /\d{5,}/.test(text))
    return undefined;
  return text;
}
