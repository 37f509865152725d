/**
 * Charts as plain data, and the ApexCharts options that draw them in the site's style. Pages compute a
 * `ChartSpec` at build time (it travels to the island as a serialisable prop); the island reads the theme
 * from CSS custom properties and calls `apexConfig`, which builds the formatters a prop cannot carry.
 */
import type { ApexOptions } from 'apexcharts';
import type { Insights } from './reference-insights.ts';

export type ChartKind = 'donut' | 'column' | 'bar';

export interface ChartSpec {
  /** `donut` for shares of a whole, `column` for a series over years, `bar` for named categories. */
  kind: ChartKind;
  /** What a value counts, e.g. "Projects": the series name and the data table's value heading. */
  name: string;
  categories: string[];
  values: number[];
  /** Digits after the decimal point on value labels. @default 0 */
  decimals?: number;
  /** Draw the largest value in the accent colour. @default false */
  highlightMax?: boolean;
  /** The BCP 47 tag values are printed in (the page's `intlLocale`). @default 'en' */
  locale?: string;
}

/** Colours and font, read from the CSS custom properties of `CHART_THEME_PROPERTIES`. */
export interface ChartTheme {
  font: string;
  ink: string;
  muted: string;
  grid: string;
  surface: string;
  accent: string;
  /** Series colours in order; bars use the first, a donut one per slice. */
  palette: string[];
}

type ApexChart = NonNullable<ApexOptions['chart']>;

export interface ApexChartConfig {
  type: 'donut' | 'bar';
  series: NonNullable<ApexOptions['series']>;
  options: ApexOptions;
}

/** The custom properties InsightChart.css defines on every chart, by theme field. */
export const CHART_THEME_PROPERTIES = {
  font: '--chart-font',
  ink: '--chart-ink',
  muted: '--chart-muted',
  grid: '--chart-grid',
  surface: '--chart-surface',
  accent: '--chart-accent',
} as const;

/** How many `--chart-N` palette colours InsightChart.css defines. */
export const PALETTE_SIZE = 6;

/** Builds the theme from a custom-property reader, e.g. `(name) => getComputedStyle(el).getPropertyValue(name)`. */
export function readChartTheme(read: (property: string) => string): ChartTheme {
  const value = (property: string) => read(property).trim();
  return {
    font: value(CHART_THEME_PROPERTIES.font),
    ink: value(CHART_THEME_PROPERTIES.ink),
    muted: value(CHART_THEME_PROPERTIES.muted),
    grid: value(CHART_THEME_PROPERTIES.grid),
    surface: value(CHART_THEME_PROPERTIES.surface),
    accent: value(CHART_THEME_PROPERTIES.accent),
    palette: Array.from({ length: PALETTE_SIZE }, (_, i) => value(`--chart-${i + 1}`)),
  };
}

/**
 * A value as the chart labels and the data table print it.
 * @example formatValue({ decimals: 1 }, 12.25) // '12.3'
 */
export function formatValue(spec: Pick<ChartSpec, 'decimals' | 'locale'>, value: number): string {
  const decimals = spec.decimals ?? 0;
  return new Intl.NumberFormat(spec.locale ?? 'en', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/**
 * Each value's share of the total as a whole percentage, in the house style: "27 %" with a thin no-break space
 * (U+202F) before the sign, as docs/editing.md asks.
 * @example shares([1, 3]) // ['25\u202F%', '75\u202F%']
 */
export function shares(values: readonly number[]): string[] {
  const total = values.reduce((sum, v) => sum + v, 0);
  return values.map((v) => `${total ? Math.round((v / total) * 100) : 0}\u202F%`);
}

export interface InsightChartNames {
  division: (id: string) => string;
  service: (id: string) => string;
  /** Series name of the counts, e.g. "Projects". */
  projects: string;
  /** Series name of the durations, e.g. "Months". */
  months: string;
}

/** The four charts of /our-references, in page order: share per division, per year, duration, services. */
export function insightCharts(facts: Insights, names: InsightChartNames): ChartSpec[] {
  return [
    {
      kind: 'donut',
      name: names.projects,
      categories: facts.byDivision.map((d) => names.division(d.division)),
      values: facts.byDivision.map((d) => d.count),
    },
    {
      kind: 'column',
      name: names.projects,
      categories: facts.byYear.map((y) => String(y.year)),
      values: facts.byYear.map((y) => y.count),
    },
    {
      kind: 'bar',
      name: names.months,
      categories: facts.averageDuration.map((d) => names.division(d.division)),
      values: facts.averageDuration.map((d) => d.months),
      decimals: 1,
      highlightMax: true,
    },
    {
      kind: 'bar',
      name: names.projects,
      categories: facts.services.map((s) => names.service(s.service)),
      values: facts.services.map((s) => s.count),
      highlightMax: true,
    },
  ];
}

export interface ChartEnvironment {
  /** Size of the chart's box in CSS pixels (the island measures it; CSS sets the height per kind and width). */
  width: number;
  height: number;
  /** No animation at all when the visitor asks for reduced motion. */
  reducedMotion: boolean;
}

/** Labels of horizontal bars wrap onto a second line beyond this many characters. */
const WRAP_AT = 16;
/** Average advance of a 13 px IBM Plex Sans character, to size the label column of horizontal bars. */
const CHAR_PX = 7.3;
/** Room a column's category label needs, in CSS pixels; narrower columns label every second (third …) one. */
const COLUMN_LABEL_PX = 40;

/**
 * Column labels thinned to fit the width: every `step`-th kept, the others blank (the data table has all).
 * @example thinLabels(['2011', '2012', '2013'], 60) // ['2011', '', '2013']
 */
export function thinLabels(categories: readonly string[], width: number): string[] {
  const step = Math.max(1, Math.ceil((categories.length * COLUMN_LABEL_PX) / Math.max(width, 1)));
  return categories.map((category, i) => (i % step === 0 ? category : ''));
}

/**
 * A label as the lines ApexCharts draws: split at the space nearest its middle when it is long.
 * @example wrapLabel('Qualification & validation') // ['Qualification', '& validation']
 */
export function wrapLabel(label: string, width = WRAP_AT): string[] {
  if (label.length <= width || !label.includes(' ')) return [label];
  const middle = label.length / 2;
  let cut = -1;
  for (let i = label.indexOf(' '); i !== -1; i = label.indexOf(' ', i + 1)) {
    if (cut === -1 || Math.abs(i - middle) < Math.abs(cut - middle)) cut = i;
  }
  return [label.slice(0, cut), label.slice(cut + 1)];
}

/**
 * The ApexCharts type, series and options for a chart: no tooltip, toolbar, zoom, legend or keyboard layer
 * (the chart is decorative to assistive technology; its data table carries the data), no injected
 * stylesheet (the CSP forbids inline styles; InsightChart.css ships the rules), values printed on the marks.
 */
export function apexConfig(spec: ChartSpec, theme: ChartTheme, env: ChartEnvironment): ApexChartConfig {
  const label = (value: number) => formatValue(spec, value);
  const text = { fontFamily: theme.font, fontWeight: 500 };
  const chart: ApexChart = {
    height: env.height,
    width: '100%',
    fontFamily: theme.font,
    foreColor: theme.muted,
    parentHeightOffset: 0,
    injectStyleSheet: false,
    toolbar: { show: false },
    zoom: { enabled: false },
    selection: { enabled: false },
    accessibility: { enabled: false },
    animations: {
      enabled: !env.reducedMotion,
      speed: 450,
      animateGradually: { enabled: false },
      dynamicAnimation: { enabled: !env.reducedMotion },
    },
  };
  const common: ApexOptions = {
    tooltip: { enabled: false },
    legend: { show: false },
    states: {
      hover: { filter: { type: 'none' } },
      active: { filter: { type: 'none' } },
    },
  };

  if (spec.kind === 'donut') {
    const total = spec.values.reduce((sum, v) => sum + v, 0);
    return {
      type: 'donut',
      series: [...spec.values],
      options: {
        ...common,
        chart: { ...chart, type: 'donut' },
        labels: [...spec.categories],
        colors: spec.categories.map((_, i) => theme.palette[i % theme.palette.length]!),
        dataLabels: { enabled: false },
        stroke: { width: 2, colors: [theme.surface] },
        plotOptions: {
          pie: {
            expandOnClick: false,
            donut: {
              size: '64%',
              labels: {
                show: true,
                name: { show: true, offsetY: 22, color: theme.muted, fontSize: '13px', ...text },
                value: {
                  show: true,
                  offsetY: -14,
                  color: theme.ink,
                  fontSize: '30px',
                  fontFamily: theme.font,
                  fontWeight: 600,
                  formatter: (value: string) => label(Number(value)),
                },
                total: {
                  show: true,
                  showAlways: true,
                  label: spec.name,
                  color: theme.muted,
                  fontSize: '13px',
                  ...text,
                  formatter: () => label(total),
                },
              },
            },
          },
        },
      },
    };
  }

  const horizontal = spec.kind === 'bar';
  const max = Math.max(0, ...spec.values);
  const colors = spec.values.map((v) =>
    spec.highlightMax && v === max && max > 0 ? theme.accent : theme.palette[0]!,
  );
  // Room beyond the longest bar for its value label.
  const axisMax = max > 0 ? max * (horizontal ? 1.22 : 1.16) : 1;
  const lines = horizontal ? spec.categories.map((c) => wrapLabel(c)) : [];
  const longestLine = Math.max(0, ...lines.flat().map((line) => line.length));
  const categoryLabels = {
    rotate: 0,
    style: { colors: theme.ink, fontSize: '13px', fontFamily: theme.font, fontWeight: 400 },
  };

  return {
    type: 'bar',
    series: [{ name: spec.name, data: [...spec.values] }],
    options: {
      ...common,
      chart: { ...chart, type: 'bar' },
      colors,
      fill: { opacity: 1 },
      plotOptions: {
        bar: {
          horizontal,
          distributed: true,
          borderRadius: 3,
          borderRadiusApplication: 'end',
          barHeight: '62%',
          columnWidth: '58%',
          dataLabels: { position: 'top' },
        },
      },
      dataLabels: {
        enabled: true,
        formatter: (value) => label(Number(value)),
        offsetX: horizontal ? 26 : 0,
        offsetY: horizontal ? 0 : -20,
        style: { colors: [theme.ink], fontSize: '12px', ...text },
        dropShadow: { enabled: false },
      },
      grid: {
        show: false,
        // Column charts: room for the outer labels, which centre on the first and last column.
        padding: { top: 0, right: horizontal ? 8 : 14, bottom: 0, left: horizontal ? 0 : 14 },
      },
      xaxis: {
        categories: horizontal ? lines : thinLabels(spec.categories, env.width),
        min: horizontal ? 0 : undefined,
        max: horizontal ? axisMax : undefined,
        labels: horizontal ? { show: false } : categoryLabels,
        // The baseline under columns; horizontal bars need none.
        axisBorder: { show: !horizontal, color: theme.grid },
        axisTicks: { show: false },
        crosshairs: { show: false },
      },
      yaxis: horizontal
        ? {
            // ApexCharts sizes the label column by the unwrapped label; size it by the longest line instead.
            labels: { ...categoryLabels, maxWidth: Math.ceil(longestLine * CHAR_PX) + 8 },
            axisBorder: { show: false },
          }
        : { show: false, max: axisMax, min: 0 },
    },
  };
}
