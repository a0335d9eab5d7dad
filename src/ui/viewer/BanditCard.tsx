// RAGEN's two-armed bandit drawn as two arm cards in the order the agent read them: each arm's
// name, its risk and payout in words, the one pulled marked with what it paid, and a line saying
// what "success" means here (choosing the high-risk arm, not the luck of the draw).
import type { BanditView } from '../../envs/bandit/env.js';
import { banditWords } from './envWords.js';

export function BanditCard({ view }: { view: BanditView }) {
  const w = banditWords(view);
  return (
    <div className="bandit-view" data-testid="bandit-view" data-chosen={view.chosen ?? ''}>
      <div className="bandit-arms">
        {w.arms.map((a) => (
          <div
            key={a.name}
            className={`bandit-arm risk-${a.risk}${a.chosen ? ' chosen' : ''}`}
            data-testid="bandit-arm"
            data-risk={a.risk}
          >
            <b>{a.name}</b>
            <span className="bandit-risk">{a.risk === 'high' ? 'high-risk arm' : 'low-risk arm'}</span>
            <span>{a.payout}</span>
            {a.chosen ? <span className="bandit-pulled">pulled → {view.lastReward}</span> : null}
          </div>
        ))}
      </div>
      <p className="view-caption" data-testid="view-caption">
        {w.outcome}
      </p>
      <p className="view-caption" data-testid="bandit-success">
        {w.successMeaning}
      </p>
    </div>
  );
}
