import { useId, useState, type ReactNode } from 'react';
import type { ChartSpec } from '../../../../lib/chart-options.ts';
import InsightChart from '../../../charts/InsightChart.tsx';
import type { OverviewCopy } from '../copy.ts';
import { fill } from '../format.ts';
import type { ToastTone } from '../Toasts.tsx';

export type CsvCell = string | number | null;

export interface InsightTable {
  /** Column headings; `numeric` ones align right. */
  columns: { label: string; numeric?: boolean }[];
  /** What each cell shows. */
  cells: ReactNode[][];
  /** The same rows as plain values for the CSV export (header: `csvHeader`). */
  csv: CsvCell[][];
  csvHeader: string[];
}

interface Props {
  /** Names the section's anchors and its CSV file, e.g. `pages` → korvel-pages-2026-11-01-2026-11-26.csv. */
  name: string;
  title: string;
  text?: string;
  /** The chart above the table; none is drawn when it has no value above zero. */
  chart?: ChartSpec;
  table: InsightTable;
  range: { from: string; to: string };
  copy: OverviewCopy;
  errorHeading: string;
  notify: (text: string, tone?: ToastTone) => void;
}

/** Saves `text` as a file through a temporary link (the subscriber export does the same). */
function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * One figure of the Overview: heading, a chart that assistive technology skips, and the data table under it
 * that carries the same figures for everyone, with its CSV export.
 */
export function InsightSection({
  name,
  title,
  text,
  chart,
  table,
  range,
  copy,
  errorHeading,
  notify,
}: Props) {
  const id = useId();
  const [exporting, setExporting] = useState(false);
  const drawable = chart && chart.values.some((value) => value > 0);

  const exportCsv = async () => {
    setExporting(true);
    try {
      // csv-stringify loads with the first export, not with the tab.
      const { tableCsv } = await import('../../../../lib/subscribers-csv.ts');
      download(tableCsv(table.csvHeader, table.csv), `korvel-${name}-${range.from}-${range.to}.csv`);
      notify(copy.exported);
    } catch {
      notify(copy.export_failed, 'error');
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="insight-section" aria-labelledby={`${id}-title`} data-insight={name}>
      <div className="insight-section__head">
        <div>
          <h3 id={`${id}-title`} className="insight-section__title">
            {title}
          </h3>
          {text && <p className="insight-section__text">{text}</p>}
        </div>
        <button
          type="button"
          className="admin-button admin-button--small"
          onClick={() => void exportCsv()}
          disabled={exporting || table.csv.length === 0}
          aria-describedby={`${id}-title`}
        >
          {copy.export}
        </button>
      </div>
      {chart && drawable && (
        <div className="insight-section__chart" aria-hidden="true">
          <InsightChart spec={chart} errorHeading={errorHeading} />
        </div>
      )}
      {table.cells.length === 0 ? (
        <p className="insight-section__empty">{copy.no_data}</p>
      ) : (
        <div className="insight-table" role="region" aria-labelledby={`${id}-title`} tabIndex={0}>
          <table className="admin-table">
            <caption className="visually-hidden">{fill(copy.table_label, { title })}</caption>
            <thead>
              <tr>
                {table.columns.map((column) => (
                  <th key={column.label} scope="col" className={column.numeric ? 'insight-num' : undefined}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.cells.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) =>
                    c === 0 ? (
                      <th key={c} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={c} className={table.columns[c]?.numeric ? 'insight-num' : undefined}>
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
