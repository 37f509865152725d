/**
 * A phone's first visit as Lighthouse's mobile preset makes it, measured in bytes: shared by
 * `npm run bench:bytes` (the table) and the end-to-end budget that fails CI above 140 KB (issue 38).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { languages, localePath } from '../../../src/i18n/lang.ts';
import { routes } from '../../../src/routes.ts';

export const TYPES = ['html', 'css', 'font', 'image', 'script', 'other'] as const;
export type Kind = (typeof TYPES)[number];
export type Bytes = Record<Kind, number>;

/**
 * After the network has been quiet for half a second, a further second: nothing on a page loads on a timer (the
 * cookie banner that appears at 4 s is the page's own markup and script), so this counts what Lighthouse does.
 */
const QUIET_MS = 500;
const SETTLE_MS = 1000;
/**
 * How long a page may keep loading before the visit fails naming what is still in flight; on slow 4G the
 * heaviest page loads in under 10 s.
 */
const LOADING_BOUND_MS = 60_000;
/**
 * Lighthouse's slow 4G as its DevTools throttling applies it (150 ms round trips × 3.75, 1.6 Mbit/s × 0.9).
 * The browser sizes its look-ahead for lazy images by the network it sees (2,500 px on this one), so a fast
 * loopback would load fewer images than the phone does, and fewer than Lighthouse counts.
 */
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 0.9 * 1024) / 8,
};

/** Lighthouse's mobile preset: a 412 × 823 phone at 1.75 device pixels per CSS pixel. */
export const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

/**
 * The pages to measure: the first route of each kind in src/routes.ts (home, page, divisions, sector, reference,
 * initiative, list, news, article, legal, thanks, search) in both languages, the admin left out, or every
 * route with `all`, the admin's included; only those `dist` holds (the admin is English only).
 */
export function routePaths(dist: string, all = false): string[] {
  const built = (path: string) => existsSync(join(dist, decodeURIComponent(path), 'index.html'));
  return languages.flatMap((lang) =>
    routes
      .filter(
        (route, index) =>
          all || (route.kind !== 'admin' && routes.findIndex((other) => other.kind === route.kind) === index),
      )
      .map((route) => localePath(lang, route.path))
      .filter(built),
  );
}

function kindOf(resourceType: string, mimeType: string): Kind {
  if (resourceType === 'Document') return 'html';
  if (resourceType === 'Stylesheet') return 'css';
  if (resourceType === 'Font') return 'font';
  if (resourceType === 'Image' || mimeType.startsWith('image/')) return 'image';
  if (resourceType === 'Script') return 'script';
  return 'other';
}

export const total = (bytes: Bytes) => TYPES.reduce((sum, kind) => sum + bytes[kind], 0);

/**
 * Opens `url` in a new page of `context` on slow 4G, waits until no request has been in flight for half a second
 * and a further second has passed, and returns the compressed bytes each type took off the wire (headers
 * included, CDP `encodedDataLength`). A fresh context makes it a first visit;
 * the second page of one context is a returning visit, served from its cache where the headers allow it.
 */
export async function visitBytes(context: BrowserContext, url: string): Promise<Bytes> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const kinds = new Map<string, Kind>();
  const bytes = Object.fromEntries(TYPES.map((kind) => [kind, 0])) as Bytes;
  // The requests in flight, kept from the same events that count the bytes: Playwright's own `networkidle` is
  // its bookkeeping, not the browser's, and twice on a loaded CI never came with every request answered.
  const inFlight = new Map<string, { url: string; loaderId: string }>();
  /** Bytes received so far by each request in flight, for one a navigation cuts off. */
  const received = new Map<string, number>();
  let lastEvent = performance.now();
  cdp.on('Network.requestWillBeSent', ({ requestId, request, loaderId }) => {
    inFlight.set(requestId, { url: request.url, loaderId });
    lastEvent = performance.now();
  });
  // A page that sends the visitor on (the admin without a session goes to the sign-in page) leaves its own loads
  // behind once the next one commits, and Chromium reports neither their end nor their failure: they count with
  // what had arrived.
  cdp.on('Page.frameNavigated', ({ frame }) => {
    if (frame.parentId) return;
    for (const [id, request] of inFlight)
      if (request.loaderId !== frame.loaderId) {
        bytes[kinds.get(id) ?? 'other'] += received.get(id) ?? 0;
        inFlight.delete(id);
      }
  });
  cdp.on('Network.responseReceived', ({ requestId, type, response }) =>
    kinds.set(requestId, kindOf(type, response.mimeType)),
  );
  cdp.on('Network.dataReceived', ({ requestId, encodedDataLength }) =>
    received.set(requestId, (received.get(requestId) ?? 0) + encodedDataLength),
  );
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    bytes[kinds.get(requestId) ?? 'other'] += encodedDataLength;
    inFlight.delete(requestId);
    lastEvent = performance.now();
  });
  cdp.on('Network.loadingFailed', ({ requestId }) => {
    inFlight.delete(requestId);
    lastEvent = performance.now();
  });
  await cdp.send('Network.enable');
  await cdp.send('Page.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  const started = performance.now();
  await page.goto(url, { waitUntil: 'load' });
  while (inFlight.size > 0 || performance.now() - lastEvent < QUIET_MS) {
    if (performance.now() - started > LOADING_BOUND_MS)
      throw new Error(
        `${url} still loading after ${LOADING_BOUND_MS / 1000} s: ${[...inFlight.values()].map((r) => r.url).join(', ')}`,
      );
    await page.waitForTimeout(100);
  }
  await page.waitForTimeout(SETTLE_MS);
  await page.close();
  return bytes;
}
