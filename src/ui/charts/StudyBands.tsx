// The charts' side of the echo-trap study's reference bands: a hook giving each chart its bands
// (for the current run's env, or the setup's env before a run) and the switch that hides them,
// with a note when the study's file is missing or refused.
import { useEffect, useMemo } from 'react';
import { useApp } from '../store/index.js';
import { loadStudyBands } from '../store/studyBandsSlice.js';
import { CHARTS } from './chartSpecs.js';
import { bandsForChart, type ChartBand } from './studyBandData.js';

/** The env the bands are for: the shown run's, else the one set up for the next run. */
function useBandEnv(): string {
  return useApp((s) =>
    s.rows.length > 0 || s.runStatus !== 'idle' ? s.runEnv || s.config.env : s.config.env,
  );
}

/** Each chart's bands by chart id (empty when hidden, absent, or not measured for the env). */
export function useChartBands(): ReadonlyMap<string, readonly ChartBand[]> {
  const file = useApp((s) => s.studyBands.file);
  const show = useApp((s) => s.studyBands.show);
  const env = useBandEnv();
  useEffect(() => {
    void loadStudyBands(useApp);
  }, []);
  return useMemo(
    () => new Map(CHARTS.map((spec) => [spec.id, show ? bandsForChart(file, env, spec.keys) : []])),
    [file, show, env],
  );
}

/** The "study bands" switch, or a quiet note saying why there are none. */
export function StudyBandsToggle() {
  const { status, file, note, show } = useApp((s) => s.studyBands);
  const setStudyBands = useApp((s) => s.setStudyBands);
  const env = useBandEnv();
  if (status === 'idle' || status === 'loading') return null;
  if (status !== 'ok' || !file)
    return (
      <span className="charts-count" data-testid="study-bands-note" data-status={status} title={note}>
        {status === 'invalid' ? 'study reference refused' : 'no study reference'}
      </span>
    );
  const perAlgo = file.envs[env];
  const seeds = perAlgo ? Math.max(...Object.values(perAlgo).map((a) => a.seeds)) : 0;
  return (
    <label
      className="charts-count"
      data-testid="study-bands"
      data-env-has-bands={perAlgo ? 'true' : 'false'}
      title={
        perAlgo
          ? `Faint bands: the echo-trap study's runs on ${env} (min–max over seeds, dashed: mean)`
          : `The study has no runs on ${env}`
      }
    >
      <input
        type="checkbox"
        data-testid="study-bands-toggle"
        checked={show}
        disabled={!perAlgo}
        onChange={(e) => setStudyBands({ show: e.target.checked })}
      />{' '}
      study bands{perAlgo ? ` (${seeds} seed${seeds === 1 ? '' : 's'})` : ' (none for this env)'}
    </label>
  );
}
