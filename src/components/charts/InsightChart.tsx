import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { Props as ApexChartProps } from 'react-apexcharts/core';
import {
  PALETTE_SIZE,
  apexConfig,
  readChartTheme,
  shares,
  type ApexChartConfig,
  type ChartKind,
  type ChartSpec,
} from '../../lib/chart-options.ts';
import IslandErrorBoundary from '../islands/IslandErrorBoundary.tsx';
import './apexcharts.css';
import './InsightChart.css';

interface Props {
  spec: ChartSpec;
  errorHeading: string;
}

/**
 * ApexCharts and the one chart type a chart needs, imported on first draw: the server render never loads
 * them, and neither does a visitor who never scrolls to a chart.
 */
async function loadChart(kind: ChartKind): Promise<ComponentType<ApexChartProps>> {
  const [{ default: Chart }] = await Promise.all([
    import('react-apexcharts/core'),
    kind === 'donut' ? import('apexcharts/donut') : import('apexcharts/bar'),
  ]);
  return Chart;
}

function Plot({ spec }: { spec: ChartSpec }) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<{ Chart: ComponentType<ApexChartProps>; config: ApexChartConfig }>();
  const [failure, setFailure] = useState<Error>();

  useEffect(() => {
    let live = true;
    loadChart(spec.kind)
      .then((Chart) => {
        const element = box.current;
        if (!live || !element) return;
        const style = getComputedStyle(element);
        const config = apexConfig(
          spec,
          readChartTheme((property) => style.getPropertyValue(property)),
          {
            // CSS sizes the box per chart kind and screen width; the chart fills it.
            width: element.clientWidth,
            height: element.clientHeight,
            reducedMotion: window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false,
          },
        );
        setDrawn({ Chart, config });
      })
      .catch((error: unknown) => {
        if (live) setFailure(error instanceof Error ? error : new Error(String(error)));
      });
    return () => {
      live = false;
    };
  }, [spec]);
  // A failed load is rethrown while rendering, so the error boundary shows it.
  if (failure) throw failure;

  const percentages = spec.kind === 'donut' ? shares(spec.values) : [];
  return (
    <div className={`insight-chart insight-chart--${spec.kind}`} data-drawn={drawn ? 'true' : undefined}>
      <div ref={box} className="insight-chart__plot">
        {drawn && (
          <drawn.Chart
            type={drawn.config.type}
            series={drawn.config.series}
            options={drawn.config.options}
            height={drawn.config.options.chart?.height}
            width="100%"
          />
        )}
      </div>
      {spec.kind === 'donut' && (
        <ul className="insight-chart__legend">
          {spec.categories.map((category, i) => (
            <li key={category}>
              <span className={`insight-chart__swatch insight-chart__swatch--${(i % PALETTE_SIZE) + 1}`} />
              {category} <span className="insight-chart__share">{percentages[i]}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One chart of a ChartCard: decorative to assistive technology, whose users get the card's data table. */
export default function InsightChart({ spec, errorHeading }: Props) {
  return (
    <IslandErrorBoundary heading={errorHeading}>
      <Plot spec={spec} />
    </IslandErrorBoundary>
  );
}
