// The status line: the backend really in use in plain words (its details and any fallback's
// reason behind "Why?"), the GPU adapter, what the
// current run started from, and a button that cross-checks a short training run on this backend against the CPU backend.
import { useState } from 'react';
import { adapterLabel, describeBackend, plainBackend } from '../../workers/backendInfo.js';
import { useApp } from '../store/index.js';

export function StatusLine({ onSelfCheck }: { onSelfCheck: () => void }) {
  const status = useApp((s) => s.backendStatus);
  const report = useApp((s) => s.backendReport);
  const error = useApp((s) => s.backendError);
  const check = useApp((s) => s.selfCheck);
  const info = useApp((s) => s.startInfo);
  const startup = useApp((s) => s.startupStatus);
  const [why, setWhy] = useState(false);
  return (
    <footer className="status-line" data-testid="status-line">
      <span data-testid="backend-status" data-backend={report?.backend ?? ''} data-state={status}>
        {status === 'starting' ? 'Starting tfjs…' : null}
        {status === 'failed' ? `Backend failed: ${error}` : null}
        {status === 'ready' && report ? plainBackend(report) : null}
      </span>
      {status === 'ready' && report ? (
        <button
          type="button"
          className="link"
          data-testid="backend-why"
          aria-expanded={why}
          onClick={() => setWhy(!why)}
        >
          {why ? 'Hide details' : 'Why?'}
        </button>
      ) : null}
      {why && report ? <span data-testid="backend-details">Backend: {describeBackend(report)}</span> : null}
      {startup ? (
        <span data-testid="startup-status" data-phase={startup.phase}>
          {startup.text}
        </span>
      ) : null}
      <span data-testid="gpu-adapter">GPU adapter: {adapterLabel(report?.adapter ?? null)}</span>
      {info ? (
        <span data-testid="run-base" data-untrained={info.untrained}>
          Started from {info.baseLabel} · {(info.parameters / 1000).toFixed(1)}k parameters · vocabulary{' '}
          {info.vocabSize} · context {info.context}
        </span>
      ) : null}
      {info?.schedule ? <span data-testid="run-schedule">{info.schedule}</span> : null}
      <button
        type="button"
        data-testid="btn-self-check"
        disabled={status !== 'ready' || check.running}
        onClick={onSelfCheck}
        title="Train a 1-layer transformer for 3 Adam steps here and on the CPU backend, and compare the losses"
      >
        {check.running ? 'Checking…' : 'Cross-check on CPU'}
      </button>
      {check.maxAbsDiff !== null ? (
        <span data-testid="self-check-result" data-max-diff={check.maxAbsDiff}>
          {check.results
            .map((r) => `${r.backend}: ${r.losses.map((l) => l.toFixed(5)).join(' → ')}`)
            .join(' | ')}{' '}
          (max |Δ| {check.maxAbsDiff.toExponential(2)})
        </span>
      ) : null}
      {check.error ? (
        <span className="error" data-testid="self-check-error">
          {check.error}
        </span>
      ) : null}
    </footer>
  );
}
