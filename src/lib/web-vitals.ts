import type { Metric } from 'web-vitals';

export type VitalsReporter = (metric: Metric) => void;
type VitalsModule = Pick<typeof import('web-vitals'), 'onCLS' | 'onFCP' | 'onINP' | 'onLCP' | 'onTTFB'>;

/**
 * Reports Core Web Vitals to a callback. The `web-vitals` library is downloaded only when a callback is
 * given, so pages that do not measure pay nothing.
 * @returns whether reporting was started
 * @example reportWebVitals((metric) => navigator.sendBeacon('/api/vitals', JSON.stringify(metric)));
 */
export async function reportWebVitals(
  onReport?: VitalsReporter,
  load: () => Promise<VitalsModule> = () => import('web-vitals'),
): Promise<boolean> {
  if (typeof onReport !== 'function') return false;
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await load();
  for (const listen of [onCLS, onFCP, onINP, onLCP, onTTFB]) listen(onReport);
  return true;
}
