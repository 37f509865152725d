import { describe, expect, test, vi } from 'vitest';
import { reportWebVitals } from '../../src/lib/web-vitals.ts';

const fakeModule = () => {
  const listeners = { onCLS: vi.fn(), onFCP: vi.fn(), onINP: vi.fn(), onLCP: vi.fn(), onTTFB: vi.fn() };
  return { listeners, load: vi.fn(async () => listeners) };
};

describe('reportWebVitals', () => {
  test('does not load the library when no callback is given', async () => {
    const { load } = fakeModule();
    expect(await reportWebVitals(undefined, load)).toBe(false);
    expect(load).not.toHaveBeenCalled();
  });

  test('loads the library and registers the callback for every metric', async () => {
    const { listeners, load } = fakeModule();
    const report = vi.fn();
    expect(await reportWebVitals(report, load)).toBe(true);
    expect(load).toHaveBeenCalledOnce();
    for (const listen of Object.values(listeners)) expect(listen).toHaveBeenCalledWith(report);
  });
});
