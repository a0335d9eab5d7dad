// The echo-trap banner: when the detector fires a collapse or an early warning, say what
// happened in the detector's own plain words and offer to jump to the iteration (charts mark it,
// the viewer shows the sample nearest to it). It judges nothing itself: no event, no banner —
// so nothing shows before the detector has its baseline. An early warning shows only when its
// false-alarm rate on a frozen null was measured at most 1 in 16 (study/warnings.json), with how
// often it fired in a learner that held and how far ahead of the fall it came; other warnings
// stay markers on the charts.

import { rateText, shownInBanner } from '../../core/metrics/warningRates.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import { signalLabel } from '../explain/texts.js';
import { useApp } from '../store/index.js';
import { useWarningRates } from './useWarningRates.js';

/**
 * The event the banner shows: the latest collapse, else the latest warning that `shows` admits
 * (all, when not given); null if none.
 */
export function bannerEvent(
  events: readonly TrainerEvent[],
  shows: (signal: string) => boolean = () => true,
): Extract<TrainerEvent, { type: 'echo' }> | null {
  let warning: Extract<TrainerEvent, { type: 'echo' }> | null = null;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TrainerEvent;
    if (e.type !== 'echo') continue;
    if (e.kind === 'collapse') return e;
    if (e.kind === 'recovery') return warning;
    if (e.kind === 'warning' && !warning && shows(e.signal)) warning = e;
  }
  return warning;
}

export function EchoBanner() {
  const events = useApp((s) => s.events);
  const jumpTo = useApp((s) => s.jumpTo);
  const rates = useWarningRates();
  const rateOf = (signal: string) => rates?.rates.find((r) => r.signal === signal);
  const e = bannerEvent(events, (signal) => shownInBanner(rateOf(signal)));
  if (!e) return null;
  const collapse = e.kind === 'collapse';
  const rate = collapse ? undefined : rateOf(e.signal);
  return (
    <div
      className={`banner ${collapse ? 'banner-error' : 'banner-warn'}`}
      role="alert"
      data-testid="echo-banner"
    >
      <strong>{collapse ? 'Echo trap' : 'Early warning'}</strong> at iteration {e.iteration}: {e.message}
      {rate ? (
        <span className="banner-rate" data-testid="echo-rate" title={rates?.source}>
          {' '}
          {rateText(rate)}
        </span>
      ) : null}
      <ExplainButton
        title={signalLabel(e.signal)}
        items={[{ kind: 'signal', key: e.signal }]}
        testId="echo-explain"
        label="What does this mean?"
      />
      <button type="button" data-testid="echo-jump" onClick={() => jumpTo(e.iteration)}>
        Jump to iteration {e.iteration}
      </button>
    </div>
  );
}
