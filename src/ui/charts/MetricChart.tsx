// One metric chart (TensorBoard / W&B habits): a smoothing slider (debiased EMA, the raw line
// faint underneath), hover values, markers for echo-trap events, live setting changes and the
// iteration jumped to, overlays of stored runs in their own colours with a legend, CSV export,
// and a fixed height so nothing shifts as the series grow. At most MAX_POINTS per line. The
// echo-trap study's bands, when given, are faint filled areas behind the lines.
import { memo, useMemo, useState } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { download } from '../download.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import { MarkerLinks } from '../explain/MarkerLinks.js';
import { useApp } from '../store/index.js';
import { buildChartData, type ChartRun, paddedDomain, seriesOf } from './chartData.js';
import { useChartKeyboard } from './chartKeyboard.js';
import type { ChartSpec } from './chartSpecs.js';
import { metricText } from './chartSpecs.js';
import { seriesToCsv } from './csv.js';
import { formatValue, linearTickFormatter, logTick } from './format.js';
import { bandLegendText, type ChartBand, withBands } from './studyBandData.js';

const MAX_POINTS = 400;
const MAX_MARKERS = 40;

const MARKER_STYLE: Record<string, { stroke: string; dash?: string; label: string }> = {
  collapse: { stroke: '#dc2626', label: 'collapse' },
  warning: { stroke: '#d97706', dash: '4 3', label: 'warning' },
  recovery: { stroke: '#16a34a', dash: '4 3', label: 'recovery' },
  convergence: { stroke: '#16a34a', dash: '2 3', label: 'converged' },
  live: { stroke: '#2563eb', dash: '2 2', label: 'live change' },
  error: { stroke: '#111827', dash: '1 2', label: 'skipped update' },
  context: { stroke: '#9ca3af', dash: '1 3', label: 'context' },
};

/**
 * An event's marker on a chart of `keys`: warnings, collapses and the like on every chart;
 * context signals (they fire in healthy runs too) only on the chart of the metric they read.
 */
export function markerOf(
  e: TrainerEvent,
  keys: readonly string[],
): { x: number; kind: string; text: string; signal?: string } | null {
  if (e.type === 'echo') {
    if (e.kind === 'context' && !keys.includes(e.metric)) return null;
    return {
      x: e.iteration,
      kind: e.kind,
      text: e.kind === 'context' ? `context (fires in healthy runs too): ${e.message}` : e.message,
      signal: e.signal,
    };
  }
  if (e.type === 'live') {
    const what = Object.entries(e.changes)
      .map(([k, v]) => `${k} → ${v}`)
      .join(', ');
    return { x: e.iteration, kind: 'live', text: what };
  }
  return { x: e.iteration, kind: 'error', text: e.message };
}

/** A tooltip formatter: a number, or a band's [lo, hi] pair, on the chart's `scale`. */
function tooltipFormatter(scale: number): (v: unknown) => string {
  return (v) =>
    Array.isArray(v)
      ? `${formatValue(Number(v[0]), scale)}–${formatValue(Number(v[1]), scale)}`
      : formatValue(Number(v), scale);
}

export interface MetricChartProps {
  spec: ChartSpec;
  runs: readonly ChartRun[];
  events: readonly TrainerEvent[];
  focus: number | null;
  /** The study's reference bands for this chart (none: nothing drawn). */
  bands?: readonly ChartBand[];
}

const NO_BANDS: readonly ChartBand[] = [];

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
      <div className="chart-body" data-testid={`chart-body-${spec.id}`} {...keyboard.props}>
        {drawn.data.length === 0 ? (
          <div className="chart-empty">no data yet</div>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart
              data={drawn.data}
              margin={{ top: 6, right: 10, bottom: 0, left: 0 }}
              style={{ cursor: 'pointer' }}
              accessibilityLayer={false}
              onClick={(state) => {
                // A click on an iteration opens the reasoning across inputs there.
                const label = (state as { activeLabel?: unknown } | null)?.activeLabel;
                if (label !== undefined && label !== null && Number.isFinite(Number(label)))
                  openReasoning(Number(label));
              }}
            >
              <CartesianGrid stroke="#e5e7eb" strokeDasharray="3 3" />
              <XAxis
                dataKey="iteration"
                type="number"
                domain={['dataMin', 'dataMax']}
                tick={{ fontSize: 10 }}
                allowDecimals={false}
              />
              <YAxis
                width={50}
                tick={{ fontSize: 10 }}
                scale={spec.log ? 'log' : 'auto'}
                domain={spec.domain ?? padded ?? ['auto', 'auto']}
                allowDataOverflow={Boolean(spec.log)}
                tickFormatter={yTicks}
              />
              <Tooltip
                isAnimationActive={false}
                formatter={tooltipFormatter(scale)}
                labelFormatter={(l) => `iteration ${l}`}
                contentStyle={{ fontSize: 11, padding: '4px 8px' }}
              />
              {bands.map((b) => (
                <Area
                  key={b.rangeKey}
                  dataKey={b.rangeKey}
                  name={`${b.name} (min–max)`}
                  type="linear"
                  stroke="none"
                  fill={b.color}
                  fillOpacity={0.14}
                  isAnimationActive={false}
                  connectNulls
                  className="study-band"
                />
              ))}
              {bands.map((b) => (
                <Line
                  key={b.meanKey}
                  dataKey={b.meanKey}
                  name={`${b.name} mean`}
                  stroke={b.color}
                  strokeOpacity={0.45}
                  strokeWidth={1}
                  strokeDasharray="3 3"
                  dot={false}
                  isAnimationActive={false}
                  connectNulls
                />
              ))}
              {markers.map((m) => {
                const st = MARKER_STYLE[m.kind] ?? { stroke: '#6b7280', label: m.kind };
                return (
                  <ReferenceLine
                    key={`${m.kind}-${m.x}-${m.text}`}
                    x={m.x}
                    stroke={st.stroke}
                    strokeDasharray={st.dash}
                    ifOverflow="extendDomain"
                    label={undefined}
                  />
                );
              })}
              {keyboard.cursor !== null ? (
                <ReferenceLine
                  x={keyboard.cursor}
                  stroke="#111827"
                  strokeDasharray="2 2"
                  ifOverflow="extendDomain"
                />
              ) : null}
              {focus !== null ? (
                <ReferenceLine x={focus} stroke="#7c3aed" strokeWidth={2} ifOverflow="extendDomain" />
              ) : null}
              {chart.lines.map((l) => (
                <Line
                  key={l.dataKey}
                  dataKey={l.dataKey}
                  name={l.name}
                  stroke={l.color}
                  strokeOpacity={l.raw ? 0.22 : 1}
                  strokeWidth={l.raw ? 1 : 1.8}
                  strokeDasharray={l.dash}
                  dot={l.sparse && !l.raw ? { r: 2.5, fill: l.color, strokeWidth: 0 } : false}
                  isAnimationActive={false}
                  connectNulls
                  {...(l.raw ? { tooltipType: 'none' as const, legendType: 'none' as const } : {})}
                />
              ))}
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
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
    </figure>
  );
});
