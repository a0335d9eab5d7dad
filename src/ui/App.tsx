// The playground page: setup panel (left), transport bar (top), charts (centre), trajectory
// viewer (right), status line (bottom) — DESIGN §7. The train worker owns tfjs.
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatErrors } from '../core/config.js';
import { encodeConfigHash } from '../core/urlHash.js';
import { TrainClient } from '../workers/client.js';
import { ChartsArea } from './components/ChartsArea.js';
import { SetupPanel } from './components/SetupPanel.js';
import { StatusLine } from './components/StatusLine.js';
import { TrajectoryViewer } from './components/TrajectoryViewer.js';
import { TransportBar } from './components/TransportBar.js';
import { useApp } from './store/index.js';

export function App() {
  const client = useRef<TrainClient | null>(null);
  const [hashError, setHashError] = useState<string | null>(null);
  const config = useApp((s) => s.config);

  // Restore the setup from the URL hash once, before the first render that writes it back.
  const restored = useRef(false);
  if (!restored.current) {
    restored.current = true;
    if (window.location.hash.length > 1) {
      const errors = useApp.getState().loadHash(window.location.hash);
      if (errors.length > 0) setTimeout(() => setHashError(formatErrors(errors)), 0);
    }
  }

  useEffect(() => {
    if (hashError) return; // keep the user's link as it was until they change something
    const hash = `#${encodeConfigHash(config)}`;
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
  }, [config, hashError]);

  useEffect(() => {
    const c = new TrainClient();
    client.current = c;
    c.init(useApp.getState().config.backend).then(
      (report) => useApp.getState().setBackendReady(report),
      (err: Error) => useApp.getState().setBackendFailed(err.message),
    );
    return () => c.dispose();
  }, []);

  const onSelfCheck = useCallback(() => {
    const c = client.current;
    const report = useApp.getState().backendReport;
    if (!c || !report) return;
    const { setSelfCheck } = useApp.getState();
    setSelfCheck({ running: true, error: null });
    c.selfCheck([report.backend, 'cpu'], 3, 1).then(
      ({ results, maxAbsDiff }) => setSelfCheck({ running: false, results, maxAbsDiff }),
      (err: Error) => setSelfCheck({ running: false, error: err.message }),
    );
  }, []);

  return (
    <div className="app">
      <TransportBar />
      {hashError ? (
        <div className="banner banner-error" role="alert" data-testid="hash-error">
          The link's settings were not applied: {hashError}
          <button type="button" onClick={() => setHashError(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      <div className="workspace">
        <SetupPanel />
        <ChartsArea />
        <TrajectoryViewer />
      </div>
      <StatusLine onSelfCheck={onSelfCheck} />
    </div>
  );
}
