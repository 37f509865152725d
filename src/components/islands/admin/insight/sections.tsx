/**
 * The Overview's figures as sections: for each, the chart (a `ChartSpec`, drawn by the site's InsightChart)
 * and the table under it, from one GET /api/insights answer. Pure: no state, no calls.
 */
import type { ChartSpec } from '../../../../lib/chart-options.ts';
import { VITAL_BANDS, type Vital, type VitalRating } from '../../../../lib/insight-vitals.ts';
import type { Insights } from '../api.ts';
import type { OverviewCopy } from '../copy.ts';
import { calendarDate, fill } from '../format.ts';
import type { InsightTable } from './InsightSection.tsx';

export interface SectionData {
  name: string;
  title: string;
  text?: string;
  chart?: ChartSpec;
  table: InsightTable;
}

/** How many rows a bar chart draws; the table lists them all. */
const CHART_ROWS = 10;
const count = new Intl.NumberFormat('en-GB');
const share = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const num = (value: number) => count.format(value);
/** "4 %" with the thin no-break space of the house style. */
const percent = (value: number) => `${share.format(value)}\u202F%`;
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayLabel = (day: string) => shortDay.format(new Date(`${day}T00:00:00Z`));

/** A metric's value as people read it: seconds for paint and response times, plain for CLS. */
export function vitalText(metric: Vital, value: number): string {
  if (metric === 'CLS') return value.toFixed(2);
  return value >= 1000 ? `${(value / 1000).toFixed(2)}\u202Fs` : `${Math.round(value)}\u202Fms`;
}

const bar = (name: string, rows: { label: string; value: number }[]): ChartSpec => ({
  kind: 'bar',
  name,
  categories: rows.slice(0, CHART_ROWS).map((row) => row.label),
  values: rows.slice(0, CHART_ROWS).map((row) => row.value),
  highlightMax: true,
});

function visits(data: Insights, c: OverviewCopy): SectionData {
  return {
    name: 'visits',
    title: c.visits_title,
    text: c.visits_text,
    chart: {
      kind: 'column',
      name: c.col_views,
      categories: data.days.map((d) => dayLabel(d.day)),
      values: data.days.map((d) => d.views),
    },
    table: {
      columns: [
        { label: c.col_day },
        { label: c.col_views, numeric: true },
        { label: c.col_visits, numeric: true },
      ],
      cells: [...data.days].reverse().map((d) => [calendarDate(d.day), num(d.views), num(d.entries)]),
      csv: data.days.map((d) => [d.day, d.views, d.entries]),
      csvHeader: ['day', 'page_views', 'visits'],
    },
  };
}

function pages(data: Insights, c: OverviewCopy): SectionData {
  return {
    name: 'pages',
    title: c.pages_title,
    chart: bar(
      c.col_views,
      data.pages.map((p) => ({ label: p.path, value: p.views })),
    ),
    table: {
      columns: [{ label: c.col_page }, { label: c.col_views, numeric: true }],
      cells: data.pages.map((p) => [p.path, num(p.views)]),
      csv: data.pages.map((p) => [p.path, p.views]),
      csvHeader: ['page', 'page_views'],
    },
  };
}

function devices(data: Insights, c: OverviewCopy): SectionData {
  const label = (device: string) => c[`device_${device}` as keyof OverviewCopy] ?? device;
  return {
    name: 'devices',
    title: c.devices_title,
    chart: {
      kind: 'donut',
      name: c.col_views,
      categories: data.devices.map((d) => label(d.device)),
      values: data.devices.map((d) => d.views),
    },
    table: {
      columns: [{ label: c.col_device }, { label: c.col_views, numeric: true }],
      cells: data.devices.map((d) => [label(d.device), num(d.views)]),
      csv: data.devices.map((d) => [d.device, d.views]),
      csvHeader: ['device', 'page_views'],
    },
  };
}

function referrers(data: Insights, c: OverviewCopy): SectionData {
  const label = (source: string) => source || c.direct;
  return {
    name: 'referrers',
    title: c.referrers_title,
    chart: bar(
      c.col_visits,
      data.referrers.map((r) => ({ label: label(r.source), value: r.views })),
    ),
    table: {
      columns: [{ label: c.col_source }, { label: c.col_visits, numeric: true }],
      cells: data.referrers.map((r) => [label(r.source), num(r.views)]),
      csv: data.referrers.map((r) => [r.source, r.views]),
      csvHeader: ['referrer', 'visits'],
    },
  };
}

function campaigns(data: Insights, c: OverviewCopy): SectionData {
  const or = (value: string) => value || c.none;
  return {
    name: 'campaigns',
    title: c.campaigns_title,
    text: c.campaigns_text,
    chart: bar(
      c.col_visits,
      data.campaigns.map((r) => ({
        label: [r.source, r.campaign].filter(Boolean).join(' · '),
        value: r.views,
      })),
    ),
    table: {
      columns: [
        { label: c.col_source },
        { label: c.col_medium },
        { label: c.col_campaign },
        { label: c.col_visits, numeric: true },
      ],
      cells: data.campaigns.map((r) => [or(r.source), or(r.medium), or(r.campaign), num(r.views)]),
      csv: data.campaigns.map((r) => [r.source, r.medium, r.campaign, r.views]),
      csvHeader: ['utm_source', 'utm_medium', 'utm_campaign', 'visits'],
    },
  };
}

function funnel(data: Insights, c: OverviewCopy): SectionData {
  const views = data.days.reduce((sum, d) => sum + d.views, 0);
  const steps = [
    { key: 'views', label: c.step_views, value: views },
    { key: 'contact', label: c.step_contact, value: data.conversions.contact },
    { key: 'meeting', label: c.step_meeting, value: data.conversions.meeting },
    { key: 'signup', label: c.step_signup, value: data.conversions.signup },
    { key: 'confirmed', label: c.step_confirmed, value: data.conversions.confirmed },
    { key: 'brochure', label: c.step_brochure, value: data.conversions.brochure },
  ];
  const per100 = (value: number) => (views > 0 ? (value / views) * 100 : null);
  return {
    name: 'funnel',
    title: c.funnel_title,
    text: c.funnel_text,
    chart: {
      kind: 'bar',
      name: c.col_count,
      categories: steps.map((s) => s.label),
      values: steps.map((s) => s.value),
    },
    table: {
      columns: [
        { label: c.col_step },
        { label: c.col_count, numeric: true },
        { label: c.col_share, numeric: true },
      ],
      cells: steps.map((s, i) => {
        const rate = per100(s.value);
        return [s.label, num(s.value), i === 0 || rate === null ? c.none : share.format(rate)];
      }),
      csv: steps.map((s) => [s.key, s.value]),
      csvHeader: ['step', 'count'],
    },
  };
}

function subscribers(data: Insights, c: OverviewCopy): SectionData {
  return {
    name: 'subscribers',
    title: c.subscribers_title,
    text: c.subscribers_text,
    chart: {
      kind: 'column',
      name: c.col_confirmed,
      categories: data.subscribers.map((w) => dayLabel(w.week)),
      values: data.subscribers.map((w) => w.confirmed),
    },
    table: {
      columns: [
        { label: c.col_week },
        { label: c.col_confirmed, numeric: true },
        { label: c.col_unsubscribed, numeric: true },
      ],
      cells: [...data.subscribers]
        .reverse()
        .map((w) => [calendarDate(w.week), num(w.confirmed), num(w.unsubscribed)]),
      csv: data.subscribers.map((w) => [w.week, w.confirmed, w.unsubscribed]),
      csvHeader: ['week', 'confirmed', 'unsubscribed'],
    },
  };
}

function issues(data: Insights, c: OverviewCopy): SectionData {
  const rate = (clicks: number, delivered: number) => (delivered > 0 ? (clicks / delivered) * 100 : 0);
  return {
    name: 'issues',
    title: c.issues_title,
    text: c.issues_text,
    chart: {
      kind: 'bar',
      name: c.col_click_rate,
      categories: data.issues.slice(0, CHART_ROWS).map((i) => i.subject),
      values: data.issues.slice(0, CHART_ROWS).map((i) => Math.round(rate(i.clicks, i.delivered) * 10) / 10),
      decimals: 1,
    },
    table: {
      columns: [
        { label: c.col_issue },
        { label: c.col_sent },
        { label: c.col_delivered, numeric: true },
        { label: c.col_clicks, numeric: true },
        { label: c.col_click_rate, numeric: true },
        { label: c.col_unsubscribes, numeric: true },
      ],
      cells: data.issues.map((i) => [
        i.subject,
        i.sentAt ? calendarDate(i.sentAt.slice(0, 10)) : c.none,
        num(i.delivered),
        num(i.clicks),
        i.delivered > 0 ? percent(rate(i.clicks, i.delivered)) : c.none,
        num(i.unsubscribes),
      ]),
      csv: data.issues.map((i) => [i.id, i.subject, i.sentAt, i.delivered, i.clicks, i.unsubscribes]),
      csvHeader: ['issue_id', 'subject', 'sent_at', 'delivered', 'clicks', 'unsubscribes'],
    },
  };
}

function Rating({ rating, c }: { rating: VitalRating; c: OverviewCopy }) {
  return <span className={`insight-rating insight-rating--${rating}`}>{c[`rating_${rating}`]}</span>;
}

function vitals(data: Insights, c: OverviewCopy): SectionData {
  const lcp = data.vitals.filter((v) => v.metric === 'LCP').sort((a, b) => b.samples - a.samples);
  const bands = (metric: Vital) =>
    fill(c.vitals_bands, {
      good: vitalText(metric, VITAL_BANDS[metric].good),
      poor: vitalText(metric, VITAL_BANDS[metric].poor),
    });
  return {
    name: 'vitals',
    title: c.vitals_title,
    text: c.vitals_text,
    chart: {
      kind: 'bar',
      name: c.chart_lcp,
      categories: lcp.slice(0, CHART_ROWS).map((v) => v.path),
      values: lcp.slice(0, CHART_ROWS).map((v) => v.p75),
    },
    table: {
      columns: [
        { label: c.col_page },
        { label: c.col_metric },
        { label: c.col_p75, numeric: true },
        { label: c.col_rating },
        { label: c.col_samples, numeric: true },
      ],
      cells: data.vitals.map((v) => [
        v.path,
        <abbr key="metric" title={bands(v.metric)}>
          {v.metric}
        </abbr>,
        vitalText(v.metric, v.p75),
        <Rating key="rating" rating={v.rating} c={c} />,
        num(v.samples),
      ]),
      csv: data.vitals.map((v) => [v.path, v.metric, v.p75, v.rating, v.samples]),
      csvHeader: ['page', 'metric', 'p75', 'rating', 'samples'],
    },
  };
}

function searches(data: Insights, c: OverviewCopy): SectionData {
  const empty = data.searches.filter((s) => s.results === 0);
  return {
    name: 'searches-without-results',
    title: c.searches_title,
    text: c.searches_text,
    chart: bar(
      c.col_searches,
      empty.map((s) => ({ label: s.query, value: s.count })),
    ),
    table: {
      columns: [{ label: c.col_query }, { label: c.col_searches, numeric: true }],
      cells: empty.map((s) => [s.query, num(s.count)]),
      csv: empty.map((s) => [s.query, s.count]),
      csvHeader: ['query', 'searches'],
    },
  };
}

/** Every section of the Overview, in reading order. */
export function overviewSections(data: Insights, copy: OverviewCopy): SectionData[] {
  return [visits, pages, devices, referrers, campaigns, funnel, subscribers, issues, vitals, searches].map(
    (build) => build(data, copy),
  );
}
