// @vitest-environment jsdom
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ChartSpec } from '../../src/lib/chart-options.ts';
import { reactRoot } from './support/react-root.ts';

// Stands in for ApexCharts: records what the island hands to it.
const drawn: { type: string; series: unknown }[] = [];
vi.mock('react-apexcharts/core', () => ({
  default: (props: { type: string; series: unknown }) => {
    drawn.push(props);
    return <div data-fake-chart={props.type} />;
  },
}));
vi.mock('apexcharts/bar', () => ({}));
vi.mock('apexcharts/donut', () => ({}));

const donut: ChartSpec = {
  kind: 'donut',
  name: 'Projects',
  categories: ['Pharma & life sciences', 'Food & bioproducts', 'Energy'],
  values: [2, 1, 1],
};
const columns: ChartSpec = {
  kind: 'column',
  name: 'USD billion',
  categories: ['2024', '2025'],
  values: [627, 697],
};

const dom = reactRoot();

beforeEach(() => {
  vi.resetModules();
  drawn.length = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const island = async () => (await import('../../src/components/charts/InsightChart.tsx')).default;

describe('InsightChart', () => {
  test('renders on the server as an empty box and, for a donut, its legend with the shares', async () => {
    const InsightChart = await island();
    const html = renderToString(<InsightChart spec={donut} errorHeading="Chart failed" />);
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('data-fake-chart');
    const legend = document.createElement('div');
    legend.innerHTML = html;
    expect([...legend.querySelectorAll('.insight-chart__legend li')].map((li) => li.textContent)).toEqual([
      'Pharma & life sciences 50\u202F%',
      'Food & bioproducts 25\u202F%',
      'Energy 25\u202F%',
    ]);
  });

  test('draws the chart with the options built from its spec once ApexCharts has loaded', async () => {
    const InsightChart = await island();
    await act(async () => dom.root.render(<InsightChart spec={columns} errorHeading="Chart failed" />));
    await vi.waitFor(() => expect(dom.container.querySelector('[data-fake-chart="bar"]')).not.toBeNull());
    expect(drawn.at(-1)).toMatchObject({ type: 'bar', series: [{ name: 'USD billion', data: [627, 697] }] });
    expect(dom.container.querySelector('.insight-chart__legend')).toBeNull();
  });

  test('shows its error heading when ApexCharts cannot be loaded', async () => {
    vi.doMock('react-apexcharts/core', () => {
      throw new Error('chunk failed to load');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const InsightChart = await island();
    await act(async () => dom.root.render(<InsightChart spec={columns} errorHeading="Chart failed" />));
    await vi.waitFor(() =>
      expect(dom.container.querySelector('[role="alert"]')?.textContent).toBe('Chart failed'),
    );
  });
});
