// The right-hand region: tabs for the trajectory viewer, "play it yourself" and the run list.
import { useApp } from '../store/index.js';
import type { RightTab } from '../store/viewSlice.js';
import { TrajectoryViewer } from '../viewer/TrajectoryViewer.js';
import { PlayPanel } from './PlayPanel.js';
import { RunsPanel } from './RunsPanel.js';

const TABS: { id: RightTab; label: string }[] = [
  { id: 'trajectory', label: 'Trajectory' },
  { id: 'play', label: 'Play it yourself' },
  { id: 'runs', label: 'Runs' },
];

export function RightPanel() {
  const tab = useApp((s) => s.rightTab);
  const setTab = useApp((s) => s.setRightTab);
  const count = useApp((s) => s.storedRuns.length);
  return (
    <section
      className="right-panel trajectory-viewer region"
      data-testid="trajectory-viewer"
      aria-label="Trajectory viewer, play and runs"
    >
      <div className="tabs" role="tablist" aria-label="Right panel">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            data-testid={`tab-${t.id}`}
            className={tab === t.id ? 'tab active' : 'tab'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
            {t.id === 'runs' ? ` (${count})` : ''}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'trajectory' ? <TrajectoryViewer /> : null}
        {tab === 'play' ? <PlayPanel /> : null}
        {tab === 'runs' ? <RunsPanel /> : null}
      </div>
    </section>
  );
}
