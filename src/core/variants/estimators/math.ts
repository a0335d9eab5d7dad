// Advantage estimators as plain typed-array code (no tensors): GAE over agent tokens (RAGEN's
// PPO path, verl `compute_gae_advantage_return` with γ = λ = 1 by default), GRPO's group
// normalisation (RAGEN Eq 5, grouped by initial state), masked whitening, and turn-level GAE
// for the `ppo-turn` baseline. Every function is checked against a naive loop in tests.
// Layout legend: B = trajectories, T = padded tokens; row b occupies [b*T, (b+1)*T).
import { meanStd, ZERO_STD } from '../../stats.js';

/** Advantages and value targets, both [B*T]; zero outside the mask. */
export interface GaeResult {
  advantages: Float32Array;
  returns: Float32Array;
}

/**
 * GAE over the masked positions of each row, in order: position i's successor is the next
 * masked position of the same row (env tokens between agent turns are skipped), and the value
 * after the last masked position is 0. δ_i = r_i + γ·V_next − V_i; A_i = δ_i + γλ·A_next;
 * returns = A + V. With γ = λ = 1 and one terminal reward R this gives A_i = R − V_i.
 * @param rewards [B*T] token rewards (usually one nonzero entry per row, on its last agent token)
 * @param values  [B*T] critic values
 * @param mask    [B*T] 1 where a position takes part (agent tokens), 0 elsewhere
 */
export function gae(
  rewards: Float32Array,
  values: Float32Array,
  mask: Float32Array,
  B: number,
  T: number,
  gamma: number,
  lambda: number,
): GaeResult {
  const advantages = new Float32Array(B * T);
  const returns = new Float32Array(B * T);
  for (let b = 0; b < B; b++) {
    let nextValue = 0;
    let nextAdv = 0;
    for (let t = T - 1; t >= 0; t--) {
      const i = b * T + t;
      if (mask[i] === 0) continue;
      const v = values[i] as number;
      const delta = (rewards[i] as number) + gamma * nextValue - v;
      const adv = delta + gamma * lambda * nextAdv;
      advantages[i] = adv;
      returns[i] = adv + v;
      nextValue = v;
      nextAdv = adv;
    }
  }
  return { advantages, returns };
}

/** Indices of each distinct key, in order of first appearance (e.g. trajectories by group). */
export function indicesBy(keys: ArrayLike<number>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as number;
    const list = out.get(k);
    if (list) list.push(i);
    else out.set(k, [i]);
  }
  return out;
}

/**
 * GRPO: Â = (R − mean_g)/(std_g + eps) within each group g (unbiased std, as torch.std),
 * and 0 for every member of a group whose std is ~0. With `byStd` false, Â = R − mean_g
 * (Dr. GRPO; still 0 in a group whose rewards are all equal).
 * @param scores  one trajectory reward each
 * @param groupOf the group index of each trajectory
 */
export function groupNormalize(
  scores: ArrayLike<number>,
  groupOf: ArrayLike<number>,
  eps = 1e-6,
  byStd = true,
): Float32Array {
  const members = indicesBy(groupOf);
  const out = new Float32Array(scores.length);
  for (const idx of members.values()) {
    const { mean, std } = meanStd(
      idx.map((i) => scores[i] as number),
      0,
    );
    if (std < ZERO_STD) continue;
    for (const i of idx) out[i] = ((scores[i] as number) - mean) / (byStd ? std + eps : 1);
  }
  return out;
}

/**
 * Whitens `x` over the masked positions: (x − mean)/sqrt(var + 1e-8), unbiased variance,
 * as verl's masked_whiten. Unmasked positions become 0.
 */
export function whiten(x: Float32Array, mask: Float32Array): Float32Array {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    if (mask[i] !== 0) {
      n++;
      sum += x[i] as number;
    }
  }
  const out = new Float32Array(x.length);
  if (n === 0) return out;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < x.length; i++) if (mask[i] !== 0) ss += ((x[i] as number) - mean) ** 2;
  const variance = n > 1 ? ss / (n - 1) : 0;
  const scale = 1 / Math.sqrt(variance + 1e-8);
  for (let i = 0; i < x.length; i++) if (mask[i] !== 0) out[i] = ((x[i] as number) - mean) * scale;
  return out;
}

/**
 * GAE over the turns of one trajectory (the `ppo-turn` baseline: each turn is a sample, the
 * critic values the turn's state). δ_k = r_k + γ·V_{k+1} − V_k, with V after the last turn 0
 * when the episode ended and `bootstrap` otherwise.
 * @returns per-turn advantages and returns
 */
export function turnGae(
  rewards: readonly number[],
  values: readonly number[],
  gamma: number,
  lambda: number,
  bootstrap = 0,
): { advantages: number[]; returns: number[] } {
  const K = rewards.length;
  const advantages = new Array<number>(K).fill(0);
  const returns = new Array<number>(K).fill(0);
  let nextValue = bootstrap;
  let nextAdv = 0;
  for (let k = K - 1; k >= 0; k--) {
    const v = values[k] as number;
    const delta = (rewards[k] as number) + gamma * nextValue - v;
    nextAdv = delta + gamma * lambda * nextAdv;
    advantages[k] = nextAdv;
    returns[k] = nextAdv + v;
    nextValue = v;
  }
  return { advantages, returns };
}
