import { describe, expect, test } from 'vitest';
import {
  apexConfig,
  formatValue,
  insightCharts,
  readChartTheme,
  shares,
  thinLabels,
  wrapLabel,
  type ChartSpec,
  type ChartTheme,
} from '../../src/lib/chart-options.ts';
import { insights, type ReferenceFacts } from '../../src/lib/reference-insights.ts';

const theme: ChartTheme = {
  font: 'IBM Plex Sans',
  ink: '#0e2230',
  muted: '#4f6473',
  grid: '#b9c4ca',
  surface: '#ffffff',
  accent: '#c8581c',
  palette: ['#16466e', '#c8581c', '#5b8db6', '#0e2230', '#e39a5f', '#9db3c3'],
};
const env = { width: 600, height: 300, reducedMotion: false };

const references: ReferenceFacts[] = [
  { division: 'pharma', year: 2019, durationMonths: 12, services: ['basic-design', 'detailed-design'] },
  { division: 'pharma', year: 2021, durationMonths: 7, services: ['detailed-design'] },
  { division: 'pharma', year: 2021, durationMonths: 20, services: ['basic-design', 'permitting'] },
  { division: 'food', year: 2022, durationMonths: 5, services: ['detailed-design'] },
];
const names = {
  division: (id: string) => ({ pharma: 'Pharma', food: 'Food', energy: 'Energy' })[id] ?? id,
  service: (id: string) =>
    ({ 'basic-design': 'Basic design', 'detailed-design': 'Detailed design and tender documents' })[id] ??
    'Permitting',
  projects: 'Projects',
  months: 'Months',
};
const charts = insightCharts(
  insights(references, ['pharma', 'food', 'energy'], ['basic-design', 'detailed-design', 'permitting']),
  names,
);

describe('insightCharts', () => {
  test('makes the four charts in page order, each of its kind', () => {
    expect(charts.map((c) => c.kind)).toEqual(['donut', 'column', 'bar', 'bar']);
  });

  test('shares per division: every division named, empty ones kept', () => {
    expect(charts[0]).toMatchObject({
      name: 'Projects',
      categories: ['Pharma', 'Food', 'Energy'],
      values: [3, 1, 0],
    });
  });

  test('projects per year: every year from the first to the last', () => {
    expect(charts[1]).toMatchObject({
      categories: ['2019', '2020', '2021', '2022'],
      values: [1, 0, 2, 1],
    });
  });

  test('average duration: divisions with projects, one decimal, in months', () => {
    expect(charts[2]).toMatchObject({
      name: 'Months',
      categories: ['Pharma', 'Food'],
      values: [13, 5],
      decimals: 1,
    });
  });

  test('services: projects per service, named', () => {
    expect(charts[3]).toMatchObject({
      categories: ['Basic design', 'Detailed design and tender documents', 'Permitting'],
      values: [2, 3, 1],
    });
  });
});

describe('apexConfig', () => {
  test('a donut gets the values as its series and the categories as labels, one palette colour each', () => {
    const { type, series, options } = apexConfig(charts[0]!, theme, env);
    expect(type).toBe('donut');
    expect(series).toEqual([3, 1, 0]);
    expect(options.labels).toEqual(['Pharma', 'Food', 'Energy']);
    expect(options.colors).toEqual(['#16466e', '#c8581c', '#5b8db6']);
    expect(options.plotOptions?.pie?.donut?.labels?.total?.formatter?.({ config: {}, globals: {} })).toBe(
      '4',
    );
  });

  test('columns get one named series over the years', () => {
    const { type, series, options } = apexConfig(charts[1]!, theme, env);
    expect(type).toBe('bar');
    expect(series).toEqual([{ name: 'Projects', data: [1, 0, 2, 1] }]);
    expect(options.xaxis?.categories).toEqual(['2019', '2020', '2021', '2022']);
    expect(options.plotOptions?.bar?.horizontal).toBe(false);
  });

  test('horizontal bars wrap long labels and draw the largest value in the accent colour', () => {
    const { series, options } = apexConfig(charts[3]!, theme, env);
    expect(series).toEqual([{ name: 'Projects', data: [2, 3, 1] }]);
    expect(options.plotOptions?.bar?.horizontal).toBe(true);
    expect(options.xaxis?.categories).toEqual([
      ['Basic design'],
      ['Detailed design and', 'tender documents'],
      ['Permitting'],
    ]);
    expect(options.colors).toEqual(['#16466e', '#c8581c', '#16466e']);
  });

  test('value labels use the spec decimals', () => {
    const { options } = apexConfig(charts[2]!, theme, env);
    const formatter = options.dataLabels?.formatter as (value: number) => string;
    expect(formatter(13)).toBe('13.0');
  });

  test('never injects a stylesheet, and leaves out tooltip, toolbar and the keyboard layer', () => {
    for (const spec of charts) {
      const { options } = apexConfig(spec, theme, env);
      expect(options.chart?.injectStyleSheet).toBe(false);
      expect(options.tooltip?.enabled).toBe(false);
      expect(options.chart?.toolbar?.show).toBe(false);
      expect(options.chart?.accessibility?.enabled).toBe(false);
    }
  });

  test('animates only when the visitor has not asked for reduced motion', () => {
    expect(apexConfig(charts[1]!, theme, env).options.chart?.animations?.enabled).toBe(true);
    const calm = apexConfig(charts[1]!, theme, { ...env, reducedMotion: true }).options.chart?.animations;
    expect(calm?.enabled).toBe(false);
    expect(calm?.dynamicAnimation?.enabled).toBe(false);
  });

  test('takes the height of its box and the site font', () => {
    const { options } = apexConfig(charts[0]!, theme, { ...env, height: 240 });
    expect(options.chart?.height).toBe(240);
    expect(options.chart?.fontFamily).toBe('IBM Plex Sans');
  });
});

describe('chart helpers', () => {
  test('formatValue groups thousands and fixes decimals', () => {
    expect(formatValue({}, 1000)).toBe('1,000');
    expect(formatValue({ decimals: 1 }, 12.25)).toBe('12.3');
  });

  test('shares are whole percentages of the total', () => {
    const percent = (n: number) => `${n}\u202F%`;
    expect(shares([8, 5, 5, 4, 4, 4])).toEqual([27, 17, 17, 13, 13, 13].map(percent));
    expect(shares([0, 0])).toEqual([percent(0), percent(0)]);
  });

  test('wrapLabel splits a long label at the space nearest its middle', () => {
    expect(wrapLabel('Qualification & validation')).toEqual(['Qualification', '& validation']);
    expect(wrapLabel('Permitting')).toEqual(['Permitting']);
  });

  test('thinLabels keeps every label that fits and blanks the rest', () => {
    const years = Array.from({ length: 16 }, (_, i) => String(2011 + i));
    expect(thinLabels(years, 1000)).toEqual(years);
    expect(thinLabels(years, 300).filter(Boolean)).toEqual(['2011', '2014', '2017', '2020', '2023', '2026']);
  });

  test('readChartTheme reads the custom properties, trimmed', () => {
    const values: Record<string, string> = { '--chart-ink': ' #0e2230', '--chart-1': '#16466e ' };
    const read = readChartTheme((property) => values[property] ?? '');
    expect(read.ink).toBe('#0e2230');
    expect(read.palette[0]).toBe('#16466e');
    expect(read.palette).toHaveLength(6);
  });
});

test('a spec is plain data, so it survives the trip to the island as a prop', () => {
  const spec: ChartSpec = charts[2]!;
  expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
});
