// Under a chart's legend: one link per echo-trap signal that left a marker on the chart, each
// opening the explanation of that signal (texts.ts), in the order the signals first fired.
import { ExplainButton } from './ExplainButton.js';
import { signalLabel } from './texts.js';

export interface SignalMarker {
  x: number;
  kind: string;
  signal?: string;
}

/** The distinct signals of the markers, first firing first. */
export function markerSignals(
  markers: readonly SignalMarker[],
): { signal: string; x: number; kind: string }[] {
  const seen = new Map<string, { signal: string; x: number; kind: string }>();
  for (const m of [...markers].sort((a, b) => a.x - b.x))
    if (m.signal && !seen.has(m.signal)) seen.set(m.signal, { signal: m.signal, x: m.x, kind: m.kind });
  return [...seen.values()];
}

export function MarkerLinks({ chartId, markers }: { chartId: string; markers: readonly SignalMarker[] }) {
  return (
    <>
      {markerSignals(markers).map((m) => (
        <li key={m.signal} className={`marker-link marker-${m.kind}`}>
          <ExplainButton
            title={`${signalLabel(m.signal)} (first at iteration ${m.x})`}
            items={[{ kind: 'signal', key: m.signal }]}
            testId={`marker-explain-${chartId}-${m.signal}`}
            label={signalLabel(m.signal)}
          />
        </li>
      ))}
    </>
  );
}
