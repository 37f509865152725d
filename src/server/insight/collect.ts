/**
 * POST /api/collect: the page beacon of a visitor who allowed cookies (issue 24), added to the daily counters.
 * Kept apart from the admin handlers so the function bundle holds no more than it needs.
 */
import { database } from '../config.ts';
import { HttpError, mediaType, noContent, readText, refuseForeignOrigin, type Handler } from '../http.ts';
import { recordVisit } from '../repositories/insight.ts';
import { BEACON_MAX_BYTES, isBot, readBeacon } from './beacon.ts';

/** `navigator.sendBeacon(url, string)` sends text/plain (no preflight); a script may send JSON. */
const BEACON_TYPES = new Set(['text/plain', 'application/json']);

/**
 * POST /api/collect → 204. Refused: 403 from another site, 415 for another media type, 413 beyond
 * {@link BEACON_MAX_BYTES}, 400 for anything malformed or out of range. Bots get 204 and count nothing.
 */
export const collectHandler: Handler = async (req) => {
  refuseForeignOrigin(req);
  const fetchSite = req.headers.get('sec-fetch-site');
  if (fetchSite !== null && fetchSite !== 'same-origin') {
    throw new HttpError(403, 'foreign_origin', 'Measurements are accepted only from the site itself.');
  }
  if (!BEACON_TYPES.has(mediaType(req) ?? '')) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the beacon as JSON text (UTF-8).');
  }
  let body: unknown;
  try {
    body = JSON.parse(await readText(req, BEACON_MAX_BYTES));
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'invalid_json', 'The beacon is not valid JSON.');
  }
  const check = readBeacon(body, new URL(req.url).hostname);
  if (!check.ok) {
    throw new HttpError(400, 'validation_failed', 'The beacon was refused.', { fields: check.fields });
  }
  if (!isBot(req.headers.get('user-agent'))) await recordVisit(database(), check.visit);
  return noContent();
};
