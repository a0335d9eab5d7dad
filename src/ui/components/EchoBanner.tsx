// The echo-trap banner: when the detector fires a collapse or an early warning, say what
// happened in the detector's own plain words and offer to jump to the iteration (charts mark it,
// the viewer shows the sample nearest to it). It judges nothing itself: no event, no banner —
// so nothing shows before the detector has its baseline.
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import { signalLabel } from '../explain/texts.js';
import { useApp } from '../store/index.js';

/** The event the banner shows: the latest collapse, else the latest warning; null if none. */
export function bannerEvent(events: readonly TrainerEvent[]): Extract<TrainerEvent, { type: 'echo' }> | null {
  let warning: Extract<TrainerEvent, { type: 'echo' }> | null = null;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TrainerEvent;
    if (e.type !== 'echo') continue;
    if (e.kind === 'collapse') return e;
    if (e.kind === 'recovery') return warning;
    if (e.kind === 'warning' && !warning) warning = e;
  }
  return warning;
}

export function EchoBanner() {
  const events = useApp((s) => s.events);
  const jumpTo = useApp((s) => s.jumpTo);
  const e = bannerEvent(events);
  if (!e) return null;
  const collapse = e.kind === 'collapse';
  return (
    <div
      className={`banner ${collapse ? 'banner-error' : 'banner-warn'}`}
      role="alert"
      data-testid="echo-banner"
    >
      <strong>{collapse ? 'Echo trap' : 'Early warning'}</strong> at iteration {e.iteration}: {e.message}
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
