// The run list (W&B's runs table, in small): every stored run with its status, progress and
// result; open it (read-only, in the charts and viewer), rename, delete, overlay on the charts,
// compare summaries side by side, and export or import runs and checkpoints as files.
// Interrupted runs (a tab closed mid-run) keep their data.
import { VERDICT_LABELS, verdictText } from '../../core/metrics/verdict.js';
import { compareStoredRuns } from '../compare/openCompare.js';
import { algorithmName, envName } from '../labels.js';
import {
  deleteStoredRun,
  exportCheckpoint,
  exportRun,
  importFile,
  renameRun,
  toggleOverlay,
} from '../runs/library.js';
import { openStoredRun } from '../runs/openRun.js';
import { useApp } from '../store/index.js';
import { openedRunId } from '../store/runSlice.js';
import { CompareTable } from './CompareTable.js';
import { JsonFileButton } from './OverlayPanel.js';

type StoredRun = ReturnType<typeof useApp.getState>['storedRuns'][number];

/** A run's place, result and verdict, in one line. */
function RunMeta({ r }: { r: StoredRun }) {
  const success = r.summary
    ? `success over the last 10 iterations ${(r.summary.finalSuccess * 100).toFixed(0)}%`
    : '';
  const verdict = r.summary?.verdict;
  return (
    <span className="run-meta">
      {envName(r.config.env)} · {algorithmName(r.config.algorithm)} · seed {r.config.seed} · it {r.iteration}/
      {r.config.iterations}{' '}
      <span title="The mean success of the last 10 iterations' rollouts (the number the verdict reads as “last 10”)">
        {success}
      </span>
      {verdict ? (
        <>
          {' · '}
          <span
            className="verdict-tag"
            data-testid="run-item-verdict"
            data-verdict={verdict.verdict}
            title={verdictText(verdict)}
          >
            {VERDICT_LABELS[verdict.verdict].toLowerCase()}
          </span>
        </>
      ) : r.summary?.echoTrap ? (
        ' · echo trap'
      ) : (
        ''
      )}
    </span>
  );
}

/** Open, overlay, compare, export, checkpoint, delete. */
function RunActions({ r, training }: { r: StoredRun; training: boolean }) {
  const overlay = useApp((s) => s.overlays.find((o) => o.id === r.id));
  const compareIds = useApp((s) => s.compareIds);
  const toggleCompare = useApp((s) => s.toggleCompare);
  const currentId = useApp((s) => s.runId);
  const opened = currentId === openedRunId(r.id);
  return (
    <span className="run-actions">
      <button
        type="button"
        className="small"
        data-testid="run-open"
        disabled={r.id === currentId || opened || training}
        title={
          training
            ? 'A run is training: stop or reset it first'
            : 'Show this run in the charts and the trajectory viewer (read-only)'
        }
        onClick={() => void openStoredRun(r.id)}
      >
        Open
      </button>
      <label title="Draw this run on the charts">
        <input
          type="checkbox"
          data-testid="run-overlay"
          checked={Boolean(overlay)}
          disabled={r.id === currentId || opened}
          onChange={() => void toggleOverlay(r.id)}
        />
        {overlay ? <span className="swatch" style={{ background: overlay.color }} /> : null} overlay
      </label>
      <label title="Compare summaries side by side">
        <input
          type="checkbox"
          data-testid="run-compare"
          checked={compareIds.includes(r.id)}
          onChange={() => toggleCompare(r.id)}
        />{' '}
        compare
      </label>
      <button type="button" className="small" data-testid="run-export" onClick={() => void exportRun(r.id)}>
        Export
      </button>
      <button
        type="button"
        className="small"
        data-testid="run-export-checkpoint"
        disabled={!r.hasCheckpoint}
        onClick={() => void exportCheckpoint(r.id)}
      >
        Checkpoint
      </button>
      <button
        type="button"
        className="small danger"
        data-testid="run-delete"
        disabled={r.id === currentId}
        onClick={() => {
          if (window.confirm(`Delete "${r.name}" and all its data?`)) void deleteStoredRun(r.id);
        }}
      >
        Delete
      </button>
    </span>
  );
}

/** One stored run: its name (renamed in place), its status, its line and its actions. */
function RunItem({ r, training }: { r: StoredRun; training: boolean }) {
  const currentId = useApp((s) => s.runId);
  const opened = currentId === openedRunId(r.id);
  return (
    <li className="run-item" data-testid="run-item" data-run-id={r.id} data-status={r.status}>
      <input
        className="run-name"
        aria-label="Run name"
        title={r.name}
        data-testid="run-name"
        defaultValue={r.name}
        onBlur={(e) => {
          if (e.target.value !== r.name) void renameRun(r.id, e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
        }}
      />
      <span className={`status status-${r.status}`} data-testid="run-status">
        {r.id === currentId ? 'current · ' : opened ? 'open · ' : ''}
        {r.status}
      </span>
      <RunMeta r={r} />
      <RunActions r={r} training={training} />
    </li>
  );
}

export function RunsPanel() {
  const runs = useApp((s) => s.storedRuns);
  const compareIds = useApp((s) => s.compareIds);
  const status = useApp((s) => s.runStatus);
  const training =
    status === 'starting' || status === 'running' || status === 'paused' || status === 'stopping';
  return (
    <div className="runs-panel" data-testid="runs-panel">
      <div className="runs-head">
        <span>
          {runs.length} stored run{runs.length === 1 ? '' : 's'}
        </span>
        <JsonFileButton
          label="Import run or checkpoint…"
          buttonTestId="btn-import"
          inputTestId="import-file"
          onFile={(f) => void importFile(f)}
        />
      </div>
      <ul className="run-list">
        {runs.map((r) => (
          <RunItem key={r.id} r={r} training={training} />
        ))}
      </ul>
      {compareIds.length > 0 ? (
        <button
          type="button"
          className="small"
          data-testid="btn-compare-view"
          onClick={() => void compareStoredRuns(compareIds)}
        >
          Open compare view (configs diff + curves)
        </button>
      ) : null}
      <CompareTable />
    </div>
  );
}
