// One metric chart (TensorBoard / W&B habits): a smoothing slider (debiased EMA, the raw line
// faint underneath), hover values, markers for echo-trap events, live setting changes and the
// iteration jumped to, overlays of stored runs in their own colours with a legend, CSV export,
// and a fixed height so nothing shifts as the series grow. At most MAX_POINTS per line. The
// echo-trap study's bands, when given, are faint filled areas behind the lines.
import { memo, useMemo, useState } from 'react';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { download } from '../download.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import { MarkerLinks } from '../explain/MarkerLinks.js';
import { useApp } from '../store/index.js';
import { type ChartMarker, ChartPlot, markerOf } from './ChartPlot.js';
import { buildChartData, type ChartData, type ChartRun, paddedDomain, seriesOf } from './chartData.js';
import { useChartKeyboard } from './chartKeyboard.js';
import type { ChartSpec } from './chartSpecs.js';
import { metricText } from './chartSpecs.js';
import { seriesToCsv } from './csv.js';
import { formatValue, linearTickFormatter, logTick } from './format.js';
import { bandLegendText, type ChartBand, withBands } from './studyBandData.js';

export { markerOf };

const MAX_POINTS = 400;
const MAX_MARKERS = 40;

export interface MetricChartProps {
  spec: ChartSpec;
  runs: readonly ChartRun[];
  events: readonly TrainerEvent[];
  focus: number | null;
  /** The study's reference bands for this chart (none: nothing drawn). */
  bands?: readonly ChartBand[];
}

const NO_BANDS: readonly ChartBand[] = [];

/** The chart's title, its explanation, the smoothing slider and the CSV export. */
function ChartHead({
  spec,
  runs,
  smoothing,
  setSmoothing,
}: {
  spec: ChartSpec;
  runs: readonly ChartRun[];
  smoothing: number;
  setSmoothing: (v: number) => void;
}) {
  const help = spec.keys.map((k) => `${metricText(k).label}: ${metricText(k).help}`).join('\n');
  const exportCsv = () => {
    const series = runs.flatMap((run) =>
      spec.keys.map((key) => {
        const { xs, ys } = seriesOf(run.rows, key);
        return {
          name: `${run.name} ${key}`,
          points: xs.map((x, i) => ({ iteration: x, value: ys[i] as number })),
        };
      }),
    );
    download(`${spec.id}.csv`, seriesToCsv(series), 'text/csv');
  };
  const sliderId = `smoothing-${spec.id}`;
  return (
    <figcaption className="chart-head">
      <span className="chart-title" title={help}>
        {spec.title}
        {spec.log ? <span className="chart-tag">log</span> : null}
      </span>
      <ExplainButton
        title={spec.title}
        items={spec.keys.map((key) => ({ kind: 'metric' as const, key }))}
        testId={`explain-chart-${spec.id}`}
      />
      <label
        className="smoothing"
        htmlFor={sliderId}
        title="Debiased exponential moving average (raw line faint)"
      >
        <span className="sr-only">Smoothing</span>
        <span aria-hidden="true">{smoothing.toFixed(2)}</span>
        <input
          id={sliderId}
          data-testid={sliderId}
          type="range"
          min={0}
          max={0.99}
          step={0.01}
          value={smoothing}
          onChange={(e) => setSmoothing(Number(e.target.value))}
        />
      </label>
      <button
        type="button"
        className="small"
        data-testid={`csv-${spec.id}`}
        onClick={exportCsv}
        title="Download the raw series as CSV"
      >
        CSV
      </button>
    </figcaption>
  );
}

/** Each series' last value, the bands' and markers' keys, and a link per signal that fired. */
function ChartLegend({
  spec,
  chart,
  bands,
  markers,
  scale,
}: {
  spec: ChartSpec;
  chart: ChartData;
  bands: readonly ChartBand[];
  markers: readonly ChartMarker[];
  scale: number;
}) {
  return (
    <ul className="chart-legend">
      {chart.lines
        .filter((l) => !l.raw)
        .map((l) => (
          <li key={l.dataKey}>
            <span className="swatch" style={{ background: l.color, opacity: l.dash ? 0.7 : 1 }} />
            {l.name}
            {chart.last[l.dataKey] !== undefined ? (
              <b data-testid="legend-value"> {formatValue(chart.last[l.dataKey] as number, scale)}</b>
            ) : null}
          </li>
        ))}
      {bands.length > 0 ? (
        <li
          className="marker-legend"
          data-testid={`band-legend-${spec.id}`}
          title={bands.map((b) => `${b.family} — ${b.text}`).join('\n')}
        >
          {bandLegendText(bands)}:{' '}
          {bands.map((b) => (
            <span key={b.rangeKey} className="band-key">
              <span className="swatch" style={{ background: b.color, opacity: 0.35, height: 8 }} />
              {b.family}{' '}
            </span>
          ))}
        </li>
      ) : null}
      {markers.length > 0 ? (
        <li className="marker-legend" title={markers.map((m) => `${m.x}: ${m.text}`).join('\n')}>
          {markers.length} marker{markers.length > 1 ? 's' : ''}
        </li>
      ) : null}
      <MarkerLinks chartId={spec.id} markers={markers} />
    </ul>
  );
}

export const MetricChart = memo(function MetricChart({
  spec,
  runs,
  events,
  focus,
  bands = NO_BANDS,
}: MetricChartProps) {
  const [smoothing, setSmoothing] = useState(0.6);
  const openReasoning = useApp((s) => s.openReasoning);
  const keys = useMemo(() => spec.keys.map((key) => ({ key, label: metricText(key).label })), [spec]);
  const chart = useMemo(
    () =>
      buildChartData(runs, keys, { smoothing, maxPoints: MAX_POINTS, ...(spec.log ? { log: true } : {}) }),
    [runs, keys, smoothing, spec.log],
  );
  const drawn = useMemo(() => withBands(chart, bands, spec.log), [chart, bands, spec.log]);
  const markers = useMemo(() => {
    const all = events
      .map((e) => markerOf(e, spec.keys))
      .filter((m): m is NonNullable<typeof m> => m !== null);
    return all.slice(-MAX_MARKERS);
  }, [events, spec.keys]);
  const iterations = useMemo(() => drawn.data.map((d) => Number(d.iteration)), [drawn.data]);
  const keyboard = useChartKeyboard(spec.title, iterations, openReasoning);
  const padded = paddedDomain(drawn.range, spec.log);
  // The chart's magnitude, against which float noise prints as 0.
  const scale = spec.domain
    ? Math.max(Math.abs(spec.domain[0]), Math.abs(spec.domain[1]))
    : drawn.range
      ? Math.max(Math.abs(drawn.range[0]), Math.abs(drawn.range[1]))
      : 1;
  const yTicks = spec.log
    ? logTick
    : spec.domain
      ? (v: number) => formatValue(v, scale)
      : linearTickFormatter(padded ?? drawn.range);
  return (
    <figure
      className="chart"
      data-testid={`chart-${spec.id}`}
      data-points={chart.points}
      data-runs={runs.length}
      data-bands={bands.length}
    >
      <ChartHead spec={spec} runs={runs} smoothing={smoothing} setSmoothing={setSmoothing} />
      <div className="chart-body" data-testid={`chart-body-${spec.id}`} {...keyboard.props}>
        <ChartPlot
          spec={spec}
          drawn={drawn}
          chart={chart}
          bands={bands}
          markers={markers}
          cursor={keyboard.cursor}
          focus={focus}
          padded={padded}
          yTicks={yTicks}
          scale={scale}
        />
      </div>
      <ChartLegend spec={spec} chart={chart} bands={bands} markers={markers} scale={scale} />
    </figure>
  );
});
