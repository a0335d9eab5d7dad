// The transport bar: start / pause / step / stop / reset and the run's progress.
// Start is blocked, with the reason, while the setup has errors.
import { useApp } from '../store/index.js';

export function TransportBar() {
  const errors = useApp((s) => s.configErrors);
  const status = useApp((s) => s.runStatus);
  const iteration = useApp((s) => s.iteration);
  const planned = useApp((s) => s.config.iterations);
  const blocked = errors.length > 0;
  const reason = blocked
    ? `Fix the setup first: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`
    : '';
  return (
    <header className="transport region" data-testid="transport-bar">
      <h1 className="brand">
        StarPO <span>Playground</span>
      </h1>
      <div className="transport-buttons" role="toolbar" aria-label="Run controls">
        <button
          type="button"
          data-testid="btn-start"
          disabled={blocked || status === 'running'}
          title={reason || 'Start training'}
        >
          Start
        </button>
        <button type="button" data-testid="btn-pause" disabled={status !== 'running'}>
          Pause
        </button>
        <button type="button" data-testid="btn-step" disabled={blocked || status === 'running'}>
          Step
        </button>
        <button type="button" data-testid="btn-stop" disabled={status === 'idle' || status === 'stopped'}>
          Stop
        </button>
        <button type="button" data-testid="btn-reset" disabled={status === 'running'}>
          Reset
        </button>
      </div>
      <div className="progress" data-testid="progress">
        Iteration {iteration} / {planned}
      </div>
      {blocked ? (
        <p className="blocked-reason" role="status" data-testid="start-blocked">
          {reason}
        </p>
      ) : null}
    </header>
  );
}
