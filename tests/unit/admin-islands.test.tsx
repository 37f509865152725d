// @vitest-environment jsdom
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import LoginForm from '../../src/components/islands/admin/LoginForm.tsx';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SubscriberTable } from '../../src/components/islands/admin/SubscriberTable.tsx';
import { TOAST_DURATION_MS, ToastRegion, useToasts } from '../../src/components/islands/admin/Toasts.tsx';
import type {
  PagerCopy,
  RecordCopy,
  SubscribersCopy,
  SuppressionsCopy,
} from '../../src/components/islands/admin/copy.ts';
import admin from '../../src/i18n/locales/en/admin.json';
import { reactRoot } from './support/react-root.ts';

const dom = reactRoot();

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

let push: (text: string) => void = () => undefined;
function Harness() {
  const { toasts, notify, dismiss } = useToasts();
  push = notify;
  return (
    <ToastRegion
      toasts={toasts}
      onDismiss={dismiss}
      label="Notifications"
      dismissLabel="Dismiss notification"
    />
  );
}
const texts = () => [...dom.container.querySelectorAll('.admin-toast__text')].map((p) => p.textContent);

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());

  test('sit in a polite live region and close after 5000 ms', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
    act(() => dom.root.render(<Harness />));
    const region = dom.container.querySelector('[role="status"]');
    expect(region?.getAttribute('aria-live')).toBe('polite');
    act(() => push('Email copied!'));
    expect(texts()).toEqual(['Email copied!']);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(texts()).toEqual(['Email copied!']);
    act(() => vi.advanceTimersByTime(1));
    expect(texts()).toEqual([]);
  });

  test('close at once with their button', () => {
    act(() => dom.root.render(<Harness />));
    act(() => push('Email copied!'));
    act(() => dom.container.querySelector<HTMLButtonElement>('[aria-label="Dismiss notification"]')!.click());
    expect(texts()).toEqual([]);
  });

  test('stay open while the pointer rests on them', () => {
    act(() => dom.root.render(<Harness />));
    act(() => push('All emails copied to clipboard!'));
    const toast = dom.container.querySelector('.admin-toast')!;
    act(() => vi.advanceTimersByTime(2000));
    act(() => toast.dispatchEvent(new PointerEvent('pointerover', { bubbles: true })));
    act(() => vi.advanceTimersByTime(10_000));
    expect(texts()).toEqual(['All emails copied to clipboard!']);
    act(() => toast.dispatchEvent(new PointerEvent('pointerout', { bubbles: true })));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(texts()).toEqual([]);
  });
});

const copy = admin.subscribers as SubscribersCopy;
const pagerCopy = admin.pager as PagerCopy;
const recordCopy = admin.subscriber_record as RecordCopy;
const suppressionsCopy = admin.suppressions as SuppressionsCopy;

function reply(status: number, body: unknown, total?: number) {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      ...(total === undefined ? {} : { 'x-total-count': String(total) }),
    },
  });
}

async function renderTable(fetchMock: ReturnType<typeof vi.fn>) {
  vi.stubGlobal('fetch', fetchMock);
  const onUnauthorized = vi.fn();
  await act(async () =>
    dom.root.render(
      <SubscriberTable
        token="header.payload.signature"
        copy={copy}
        recordCopy={recordCopy}
        suppressionsCopy={suppressionsCopy}
        pagerCopy={pagerCopy}
        pagerLabel="Subscriber list pages"
        notify={() => undefined}
        onUnauthorized={onUnauthorized}
      />,
    ),
  );
  return onUnauthorized;
}

describe('SubscriberTable', () => {
  test('asks for page 1 of 25 by id with the token in the header only, and shows "N/A" for a missing date', async () => {
    const fetchMock = vi.fn(async () =>
      reply(
        200,
        [
          { id: 1, email: 'ana@plant.example', created_temp: '2026-03-01T08:00:00.000Z' },
          { id: 2, email: 'legacy@old.example', created_temp: null },
        ],
        2,
      ),
    );
    await renderTable(fetchMock);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/newsletter?sort=id&page=1&pageSize=25');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer header.payload.signature');
    const rows = [...dom.container.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(2);
    expect(rows[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-03-01T08:00:00.000Z');
    expect(rows[1]!.textContent).toContain('N/A');
    expect(dom.container.textContent).toContain('2 subscribers');
  });

  test('a failed load logs its status only and shows no rows', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onUnauthorized = await renderTable(
      vi.fn(async () => reply(500, { error: { code: 'internal_error' } })),
    );
    expect(error).toHaveBeenCalledWith('Subscriber list failed to load:', 500);
    expect(JSON.stringify(error.mock.calls)).not.toContain('header.payload.signature');
    expect(dom.container.querySelectorAll('tbody tr')).toHaveLength(0);
    expect(dom.container.textContent).toContain(copy.load_failed);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  test('401 and 403 hand over to the sign-in page', async () => {
    for (const status of [401, 403]) {
      const onUnauthorized = await renderTable(vi.fn(async () => reply(status, {})));
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
    }
  });
});

describe('LoginForm', () => {
  const loginCopy = {
    ...admin.login_form,
    secondStep: admin.second_step,
    errorHeading: 'Unexpected Application Error!',
  };

  test('as served, before its script runs, cannot be sent: credentials never reach a URL', () => {
    const html = renderToString(<LoginForm copy={loginCopy} />);
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""/);
  });

  test('once hydrated, the Login button works', async () => {
    await act(async () => dom.root.render(<LoginForm copy={loginCopy} />));
    expect(dom.container.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(false);
  });
});
