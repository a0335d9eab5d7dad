// The playground page: setup panel (left), transport bar (top), charts (centre), trajectory
// viewer / play / runs (right), status line (bottom). The train worker owns tfjs;
// the env workers own the environments; this thread only renders.
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatErrors } from '../core/config.js';
import { encodeConfigHash } from '../core/urlHash.js';
import { CompareView } from './compare/CompareView.js';
import { ChartsArea } from './components/ChartsArea.js';
import { RightPanel } from './components/RightPanel.js';
import { SetupPanel } from './components/SetupPanel.js';
import { StatusLine } from './components/StatusLine.js';
import { TransportBar } from './components/TransportBar.js';
import { ControllerContext } from './controller/context.js';
import { createController } from './controller/controller.js';
import { ExplainPopover } from './explain/ExplainPopover.js';
import { FanoutPanel } from './fanout/FanoutPanel.js';
import { useApp } from './store/index.js';
import { SweepsDialog } from './sweeps/SweepsDialog.js';
import { FeatureBar } from './tour/FeatureBar.js';
import { Tour } from './tour/Tour.js';
import { ReasoningPanel } from './viewer/ReasoningPanel.js';

function Notice() {
  const notice = useApp((s) => s.notice);
  const setNotice = useApp((s) => s.setNotice);
  const runError = useApp((s) => s.runError);
  if (!notice && !runError) return null;
  const text = notice?.text ?? `The run stopped on an error: ${runError}`;
  const kind = notice?.kind ?? 'error';
  return (
    <div
      className={`banner ${kind === 'error' ? 'banner-error' : 'banner-info'}`}
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid="notice"
      data-kind={kind}
    >
      {text}
      <button type="button" onClick={() => (notice ? setNotice(null) : useApp.setState({ runError: null }))}>
        Dismiss
      </button>
    </div>
  );
}

/**
 * The setup in the URL hash: read once before the first render (a link's bad fields named, the
 * link left as typed until the user changes something), written back as the setup changes once
 * the base models are known, and read again when the hash is edited in the open tab (never
 * mid-run). Returns the refusal to show, and its setter (Dismiss).
 */
function useUrlHash(): [string | null, (e: string | null) => void] {
  const [hashError, setHashError] = useState<string | null>(null);
  const config = useApp((s) => s.config);
  const edits = useApp((s) => s.edits);
  const drafts = useApp((s) => s.drafts);
  const ready = useApp((s) => s.baseModelsReady);
  // Restore the setup from the URL hash once, before the first render that writes it back.
  const restored = useRef<{ edits: unknown; drafts: unknown } | null>(null);
  if (!restored.current) {
    if (window.location.hash.length > 1) {
      const errors = useApp.getState().loadHash(window.location.hash);
      if (errors.length > 0) setTimeout(() => setHashError(formatErrors(errors)), 0);
    }
    restored.current = { edits: useApp.getState().edits, drafts: useApp.getState().drafts };
  }

  useEffect(() => {
    // A link with bad fields stays as typed until the user changes something.
    const loaded = restored.current;
    const changed = loaded !== null && (edits !== loaded.edits || drafts !== loaded.drafts);
    if (hashError && !changed) return;
    if (hashError) setHashError(null);
    // Written once the base models are known: before, the config lacks their settings.
    if (!ready) return;
    const hash = `#${encodeConfigHash(config)}`;
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
  }, [config, edits, drafts, hashError, ready]);

  // A hash edited in the open tab (the page writes its own with replaceState, which fires no
  // hashchange) is loaded like a link, its bad fields named; never mid-run.
  useEffect(() => {
    const onHash = () => {
      const st = useApp.getState();
      if (st.runStatus === 'running' || st.runStatus === 'starting' || st.runStatus === 'stopping') {
        setHashError('a run is in progress: stop it first, then load the link again');
        return;
      }
      const errors = st.loadHash(window.location.hash, st.edits);
      restored.current = { edits: useApp.getState().edits, drafts: useApp.getState().drafts };
      setHashError(errors.length > 0 ? formatErrors(errors) : null);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return [hashError, setHashError];
}

export function App() {
  const [hashError, setHashError] = useUrlHash();
  // The page's controller: made once (no side effects), started and stopped with the page.
  const [controller] = useState(createController);

  useEffect(() => controller.start(), [controller]);

  const onSelfCheck = useCallback(() => {
    const c = controller.trainClient();
    const report = useApp.getState().backendReport;
    if (!c || !report) return;
    const { setSelfCheck } = useApp.getState();
    setSelfCheck({ running: true, error: null });
    c.selfCheck([report.backend, 'cpu'], 3, 1).then(
      ({ results, maxAbsDiff }) => setSelfCheck({ running: false, results, maxAbsDiff }),
      (err: Error) => setSelfCheck({ running: false, error: err.message }),
    );
  }, [controller]);

  return (
    <ControllerContext.Provider value={controller}>
      <div className="app">
        <TransportBar />
        <div>
          <p className="intro" data-testid="intro">
            Train a tiny language-model agent with multi-turn reinforcement learning, here in this tab, and
            watch whether its success rises and then collapses (the “echo trap”). <b>Start</b> trains the
            setup (the presets and fields beside the charts, below them on a phone) from a small pretrained
            model; the charts fill in as it learns. New here? Take the tour.
          </p>
          <FeatureBar />
          {/* The backend in use and why, in view before Start (it used to sit below the fold). */}
          <StatusLine onSelfCheck={onSelfCheck} />
        </div>
        {hashError ? (
          <div className="banner banner-error" role="alert" data-testid="hash-error">
            Some of the link's settings were not applied (the rest were): {hashError}
            <button type="button" onClick={() => setHashError(null)}>
              Dismiss
            </button>
          </div>
        ) : null}
        <Notice />
        <div className="workspace">
          <SetupPanel />
          <ChartsArea />
          <RightPanel />
        </div>
        <SweepsDialog />
        <FanoutPanel />
        <ReasoningPanel />
        <CompareView />
        <Tour />
        <ExplainPopover />
      </div>
    </ControllerContext.Provider>
  );
}
