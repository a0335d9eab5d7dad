// The verdict at the end of a run (core/metrics/verdict.ts): what the pre-registered rule decided
// — trapped, collapsed without a rise, held, or too short to judge — in words and numbers (start,
// peak, last 10 with their standard errors), so nobody has to read it off the charts or a
// stale warning. A stored run opened from the list shows the same, judged again from its rows
// when it was stored before verdicts existed.
import { useMemo } from 'react';
import { verdictOfRows } from '../../core/metrics/detector.js';
import { type RunVerdict, VERDICT_LABELS, verdictText } from '../../core/metrics/verdict.js';
import { useApp } from '../store/index.js';

/** The banner's colour for each verdict. */
const VERDICT_CLASS: Record<RunVerdict['verdict'], string> = {
  trapped: 'banner-error',
  collapsed: 'banner-warn',
  held: 'banner-ok',
  'too-short': 'banner-info',
};

/** The text after the verdict's name, as a sentence of its own. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function RunVerdictBanner() {
  const status = useApp((s) => s.runStatus);
  const summary = useApp((s) => s.summary);
  const rows = useApp((s) => s.rows);
  const opened = useApp((s) => s.openedRun);
  const config = useApp((s) => s.config);
  const ended = status === 'finished' || opened !== null;
  const verdict = useMemo<RunVerdict | null>(() => {
    if (!ended || rows.length === 0) return null;
    return summary?.verdict ?? verdictOfRows(opened?.config ?? config, rows);
  }, [ended, summary, rows, opened, config]);
  if (!verdict) return null;
  return (
    <div
      className={`banner ${VERDICT_CLASS[verdict.verdict]}`}
      role="status"
      data-testid="run-verdict"
      data-verdict={verdict.verdict}
    >
      <strong>Verdict: {VERDICT_LABELS[verdict.verdict].toLowerCase()}.</strong>{' '}
      {sentence(verdictText(verdict).replace(/^[^:]*: /, ''))}
    </div>
  );
}
