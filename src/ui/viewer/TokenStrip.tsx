// The agent's tokens of one turn, each coloured by its sampling probability (red = unlikely,
// green = near-certain); hover shows the log-prob.
import { memo } from 'react';

/** Background colour for a token of log-prob `logp`: hue 0 (p = 0) → 120 (p = 1). */
export function tokenColor(logp: number): string {
  const p = Number.isFinite(logp) ? Math.min(1, Math.max(0, Math.exp(logp))) : 0;
  return `hsl(${Math.round(120 * p)}, 70%, 84%)`;
}

const SHOWN: Record<string, string> = { '\n': '↵', '<sp>': '␣', '<nosp>': '·' };

export const TokenStrip = memo(function TokenStrip({ tokens, logps }: { tokens: string[]; logps: number[] }) {
  return (
    <p className="token-strip" data-testid="token-strip">
      {tokens.map((t, i) => {
        const lp = logps[i] ?? Number.NaN;
        return (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: tokens repeat; position is the identity
            key={i}
            className="token"
            style={{ background: tokenColor(lp) }}
            title={`log p = ${Number.isFinite(lp) ? lp.toFixed(3) : '–'} (p = ${Number.isFinite(lp) ? Math.exp(lp).toFixed(3) : '–'})`}
          >
            {SHOWN[t] ?? t}
          </span>
        );
      })}
    </p>
  );
});
