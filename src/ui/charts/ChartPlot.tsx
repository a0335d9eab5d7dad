// The chart's plot (recharts): axes, tooltip, the study's bands, the detector's markers (warnings
// and collapses on every chart, context signals only on the chart of the metric they read), live
// setting changes, the keyboard cursor and the focused iteration, and every run's series. A click
// on an iteration opens the reasoning panel there. MetricChart.tsx draws it between its head and
// its legend.
import type { ReactNode } from 'react';
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
import { useApp } from '../store/index.js';
import type { ChartData, paddedDomain } from './chartData.js';
import type { ChartSpec } from './chartSpecs.js';
import { formatValue } from './format.js';
import type { ChartBand, withBands } from './studyBandData.js';

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

/** A marker as a chart draws it (markerOf). */
export type ChartMarker = NonNullable<ReturnType<typeof markerOf>>;

/** The study's bands (min–max areas and mean lines), as chart children. */
function bandElements(bands: readonly ChartBand[]): ReactNode[] {
  return [
    ...bands.map((b) => (
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
    )),
    ...bands.map((b) => (
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
    )),
  ];
}

/** The detector's markers, the keyboard cursor and the focused iteration, as chart children. */
function markerElements(
  markers: readonly ChartMarker[],
  cursor: number | null,
  focus: number | null,
): ReactNode[] {
  return [
    ...markers.map((m) => {
      const st: { stroke: string; dash?: string } = MARKER_STYLE[m.kind] ?? { stroke: '#6b7280' };
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
    }),
    cursor !== null ? (
      <ReferenceLine
        key="cursor"
        x={cursor}
        stroke="#111827"
        strokeDasharray="2 2"
        ifOverflow="extendDomain"
      />
    ) : null,
    focus !== null ? (
      <ReferenceLine key="focus" x={focus} stroke="#7c3aed" strokeWidth={2} ifOverflow="extendDomain" />
    ) : null,
  ];
}

/** Every run's series (smoothed, with its raw line faint), as chart children. */
function seriesElements(lines: ChartData['lines']): ReactNode[] {
  return lines.map((l) => (
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
  ));
}

/** The plot: axes, tooltip, bands, markers and series; a click opens the reasoning panel there. */
export function ChartPlot({
  spec,
  drawn,
  chart,
  bands,
  markers,
  cursor,
  focus,
  padded,
  yTicks,
  scale,
}: {
  spec: ChartSpec;
  drawn: ReturnType<typeof withBands>;
  chart: ChartData;
  bands: readonly ChartBand[];
  markers: readonly ChartMarker[];
  cursor: number | null;
  focus: number | null;
  padded: ReturnType<typeof paddedDomain>;
  yTicks: (v: number) => string;
  scale: number;
}) {
  const openReasoning = useApp((s) => s.openReasoning);
  if (drawn.data.length === 0) return <div className="chart-empty">no data yet</div>;
  return (
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
        {bandElements(bands)}
        {markerElements(markers, cursor, focus)}
        {seriesElements(chart.lines)}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
