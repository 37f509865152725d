// @vitest-environment jsdom
/**
 * The admin's 30-day bounce and complaint figures: the rates as the page's language writes them, and a warning
 * only above its threshold (the figures come as GET /api/deliverability answers them).
 */
import { act } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { DeliverabilitySummary } from '../../src/components/islands/admin/DeliverabilitySummary.tsx';
import type { SuppressionsCopy } from '../../src/components/islands/admin/copy.ts';
import { percent } from '../../src/components/islands/admin/format.ts';
import admin from '../../src/i18n/locales/en/admin.json';
import { reactRoot } from './support/react-root.ts';

const copy = admin.suppressions as SuppressionsCopy;

const dom = reactRoot();
beforeEach(() => {
  document.documentElement.lang = 'en-GB';
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const figures = (over: Record<string, unknown>) => ({
  days: 30,
  sent: 2000,
  accepted: 1940,
  hardBounces: 60,
  softBounces: 4,
  complaints: 1,
  bounceRate: 0.03,
  complaintRate: 1 / 1940,
  warnings: { bounces: true, complaints: false },
  sendNeedsConfirmation: false,
  thresholds: { bounceWarning: 0.02, complaintWarning: 0.001, complaintConfirm: 0.003 },
  ...over,
});

async function show(body: unknown) {
  const fetchMock = vi.fn(async () => Response.json(body));
  vi.stubGlobal('fetch', fetchMock);
  await act(async () =>
    dom.root.render(<DeliverabilitySummary token="h.p.s" copy={copy} onUnauthorized={() => undefined} />),
  );
  expect(fetchMock).toHaveBeenCalledWith('/api/deliverability', expect.anything());
}

test('shows both rates and warns about bounces only when they are above 2 %', async () => {
  await show(figures({}));
  expect(dom.container.textContent).toContain('Hard bounces: 60 of 2000 mails sent (3%)');
  expect(dom.container.textContent).toContain('Spam complaints: 1 of 1940 mails delivered (0.05%)');
  const warnings = [...dom.container.querySelectorAll('[role="status"]')].map((p) => p.textContent);
  expect(warnings).toEqual([copy.warn_bounces]);
});

test('says when nothing was sent, and warns about nothing', async () => {
  await show(
    figures({
      sent: 0,
      accepted: 0,
      hardBounces: 0,
      complaints: 0,
      bounceRate: null,
      complaintRate: null,
      warnings: { bounces: false, complaints: false },
    }),
  );
  expect(dom.container.textContent).toContain(copy.rates_none);
  expect(dom.container.querySelectorAll('[role="status"]')).toHaveLength(0);
});

test('percent writes a share in the page language, a dash for no rate', () => {
  expect(percent(0.0045)).toBe('0.45%');
  expect(percent(null)).toBe('–');
  document.documentElement.lang = 'de';
  expect(percent(0.003)).toBe('0,3\u00A0%');
});
