// Reasoning-collapse statistics over an iteration's thinking and actions:
// distinct-2 of the thinking, the share of the most common thinking string, the plug-in mutual
// information between start state and first action, and a rule-based thinking-quality score
// (for the σ(thinking critic) weighting, a proposal beside RAGEN's paper). Plain code, no tensors.

/** Lowercase word tokens of a text. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Distinct bigrams ÷ bigrams over all texts (0 when there are no bigrams). */
export function distinct2(texts: readonly string[]): number {
  const seen = new Set<string>();
  let total = 0;
  for (const t of texts) {
    const w = words(t);
    for (let i = 0; i + 1 < w.length; i++) {
      seen.add(`${w[i]} ${w[i + 1]}`);
      total++;
    }
  }
  return total > 0 ? seen.size / total : 0;
}

/** Share of texts equal (after whitespace normalisation) to the most common one. */
export function modalShare(texts: readonly string[]): number {
  if (texts.length === 0) return 0;
  const counts = new Map<string, number>();
  let best = 0;
  for (const t of texts) {
    const k = t.trim().replace(/\s+/g, ' ').toLowerCase();
    const c = (counts.get(k) ?? 0) + 1;
    counts.set(k, c);
    best = Math.max(best, c);
  }
  return best / texts.length;
}

/**
 * Plug-in estimate of I(S; A) in nats from (state, action) pairs, with p(s, a) the empirical
 * joint: Σ p(s,a)·log(p(s,a) / (p(s)·p(a))). 0 when the action ignores the state.
 */
export function mutualInformation(pairs: readonly (readonly [string | number, string])[]): number {
  const n = pairs.length;
  if (n === 0) return 0;
  const joint = new Map<string, number>();
  const ps = new Map<string, number>();
  const pa = new Map<string, number>();
  for (const [s, a] of pairs) {
    const sk = String(s);
    joint.set(`${sk}\u0000${a}`, (joint.get(`${sk}\u0000${a}`) ?? 0) + 1);
    ps.set(sk, (ps.get(sk) ?? 0) + 1);
    pa.set(a, (pa.get(a) ?? 0) + 1);
  }
  let mi = 0;
  for (const [k, c] of joint) {
    const [sk, a] = k.split('\u0000') as [string, string];
    mi += (c / n) * Math.log((c * n) / ((ps.get(sk) as number) * (pa.get(a) as number)));
  }
  return Math.max(0, mi);
}

/**
 * A rule-based thinking-quality score in [0, 1]: half for grounding (share of the thinking's
 * content words that appear in the observation), half for agreement (share of the action's
 * words the thinking mentions). Empty thinking scores 0.
 */
export function thinkingQuality(think: string, observation: string, actions: readonly string[]): number {
  const tw = words(think).filter((w) => w.length > 2);
  if (tw.length === 0) return 0;
  const obs = new Set(words(observation));
  const grounded = tw.filter((w) => obs.has(w)).length / tw.length;
  const aw = actions.flatMap((a) => words(a)).filter((w) => w.length > 2);
  const thinkSet = new Set(tw);
  const agree = aw.length > 0 ? aw.filter((w) => thinkSet.has(w)).length / aw.length : 0;
  return 0.5 * grounded + 0.5 * agree;
}

/** Advantage weight from quality: 2σ(4(q − 0.5)), 1 at q = 0.5, in (0.24, 1.76). */
export function qualityWeight(q: number): number {
  return 2 / (1 + Math.exp(-4 * (q - 0.5)));
}
