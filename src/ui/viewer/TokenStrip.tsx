// The agent's tokens of one turn, each coloured by its sampling probability (red = unlikely,
// green = near-certain); hover shows the log-prob.
import { memo } from 'react';

/** Background colour for a token of log-prob `logp`: hue 0 (p = 0) → 120 (p = 1). */
export function tokenColor(logp: number): string {
  const p = Number.isFinite(logp) ? Math.min(1, Math.max(0, Math.exp(logp))) : 0;
  return `hsl(${Math.round(120 * p)}, 70%, 84%)`;
}

const SHOWN: Record<string, string> = { '\n': '↵', '<sp>': '␣', '<nosp>': '·' };

/** The colour key: what each shade means, drawn from the same scale as the tokens. */
export function TokenKey() {
  const stops = [0.05, 0.25, 0.5, 0.75, 0.99];
  return (
    <p className="token-key" data-testid="token-key">
      Colour: the probability the policy gave each token when it sampled it —{' '}
      {stops.map((p) => (
        <span key={p} className="token" style={{ background: tokenColor(Math.log(p)) }}>
          p = {p}
        </span>
      ))}{' '}
      (red: unlikely, green: near-certain; hover a token for its log-prob). Symbols: ↵ a newline, ␣ a space, ·
      a word piece joined to the one before.
    </p>
  );
}

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
