// The strip under the transport bar that opens the teaching and exploring features: the guided
// tour, the sweeps and the compare view of the runs ticked "compare" in the run list.
import './features.css';
import { compareStoredRuns } from '../compare/openCompare.js';
import { useApp } from '../store/index.js';

export function FeatureBar() {
  const status = useApp((s) => s.runStatus);
  const compareIds = useApp((s) => s.compareIds);
  const sweeping = useApp((s) => s.sweepProgress !== null);
  const setTour = useApp((s) => s.setTour);
  const setSweeps = useApp((s) => s.setSweeps);
  const setFanout = useApp((s) => s.setFanout);
  const fanning = useApp((s) => s.fanoutRunning);
  const active =
    status === 'running' || status === 'paused' || status === 'starting' || status === 'stopping';
  return (
    <nav className="feature-bar" aria-label="Teaching and exploring">
      <button
        type="button"
        data-testid="btn-tour"
        disabled={active || sweeping}
        title={
          active
            ? 'Stop the current run first: the tour shows recorded runs in its place'
            : 'A guided walkthrough with recorded runs'
        }
        onClick={() => setTour({ tourOpen: true, tourStep: 0, tourPosition: 0 })}
      >
        Tour: a recorded collapse, in 5 minutes
      </button>
      <button type="button" data-testid="btn-fanout" onClick={() => setFanout({ fanoutOpen: true })}>
        Seeds side by side{fanning ? ' (running)' : ''}
      </button>
      <button type="button" data-testid="btn-sweeps" onClick={() => setSweeps({ sweepsOpen: true })}>
        Sweeps{sweeping ? ' (running)' : ''}
      </button>
      <button
        type="button"
        data-testid="btn-compare"
        disabled={compareIds.length === 0}
        title="Tick “compare” on runs in the Runs tab, then open them side by side"
        onClick={() => void compareStoredRuns(compareIds)}
      >
        Compare {compareIds.length > 0 ? `(${compareIds.length})` : ''}
      </button>
    </nav>
  );
}
