// An induction-ready start for a policy (pretrain --position-init prevtok). Copying a span —
// the search words from the instruction, a product id from the results page — is an induction
// head: layer 0 writes "the previous token" at each position, and a layer-1 head matches the
// current token against it and reads the token that followed (Olsson et al. 2022, "In-context
// learning and induction heads"). The previous-token head is what a small model learns last
// from learned positions, so here it is set by hand and only the layer-1 half is learned:
//   - dims 0..2P−1 of every position row hold P sinusoid pairs [cos ωp, sin ωp] with short
//     periods (a sharp peak at one offset), and the token embeddings are zero there;
//   - layer 0, head 0: q = c·pos(p), k = R(ω)·pos(j) = pos(j+1), so q·k = c·Σ cos ω(p − j − 1),
//     largest at j = p − 1 (with P = 8 pairs and c = 3 the softmax puts ~1.0 there).
//   - with `offsets` [1, 2] (pretrain --position-init prevtok2), head 1 gets k = R(2ω)·pos(j) =
//     pos(j+2) and attends two tokens back, so layer 1 can match a two-token context (the
//     "size :" before an option value in the instruction) and not one token alone.
// Gradients may change all of it; it is an initialisation, not a constraint.
// Also here: the plain sinusoid start (pretrain --position-init sinusoid) and POSITION_INITS, the
// table of every start pretrain offers by name.
import * as tf from '@tensorflow/tfjs';
import type { Model } from './params.js';

/** Periods (in tokens) of the position sinusoids; eight pairs fill one 16-wide head. */
export const PREVIOUS_TOKEN_PERIODS: readonly number[] = [3, 4, 5, 6, 7, 9, 12, 16];

/** Options of previousTokenInit. */
export interface PreviousTokenInitOptions {
  /** Amplitude of the position sinusoids, beside token embeddings of std 0.02 (default 0.05). */
  amplitude?: number;
  /** Query scale c: the head's logit gap between offset 1 and 2 grows with it (default 3). */
  sharpness?: number;
  /** How far back layer 0's heads 0, 1, … attend (default [1]: head 0, the previous token). */
  offsets?: readonly number[];
}

/**
 * Sets `policy`'s position table, the first 2P dims of its token embeddings and the query and
 * key columns of layer 0's first heads (in place) so that head h attends `offsets[h]` tokens
 * back (head 0 the previous token by default). Needs head width ≥ 2P (P = 8: nano's and
 * micro's 16 and 32 both do) and a head per offset.
 */
export async function previousTokenInit(policy: Model, o: PreviousTokenInitOptions = {}): Promise<void> {
  const amplitude = o.amplitude ?? 0.05;
  const sharpness = o.sharpness ?? 3;
  const offsets = o.offsets ?? [1];
  const { dModel: D, context: C, vocabSize: V, nHeads } = policy.config;
  const P = 2 * PREVIOUS_TOKEN_PERIODS.length;
  const K = D / nHeads;
  if (K < P) throw new Error(`previousTokenInit: head width ${K} < ${P}`);
  if (offsets.length > nHeads)
    throw new Error(`previousTokenInit: ${offsets.length} offsets > ${nHeads} heads`);
  const wpe = new Float32Array(C * D);
  for (let p = 0; p < C; p++) {
    PREVIOUS_TOKEN_PERIODS.forEach((period, i) => {
      const angle = (2 * Math.PI * p) / period;
      wpe[p * D + 2 * i] = amplitude * Math.cos(angle);
      wpe[p * D + 2 * i + 1] = amplitude * Math.sin(angle);
    });
  }
  const wte = (await policy.weights.wte?.data())?.slice() as Float32Array;
  for (let v = 0; v < V; v++) wte.fill(0, v * D, v * D + P);
  const qkvName = 'h0.attn.wqkv';
  // [D, 3D] row-major: w[in·3D + out]; head h's query is out hK..hK+K−1, its key D+hK..D+hK+K−1.
  const w = (await policy.weights[qkvName]?.data())?.slice() as Float32Array;
  const O = 3 * D;
  offsets.forEach((offset, h) => {
    const [qc, kc] = [h * K, D + h * K];
    for (let i = 0; i < D; i++) {
      w.fill(0, i * O + qc, i * O + qc + P);
      w.fill(0, i * O + kc, i * O + kc + P);
    }
    PREVIOUS_TOKEN_PERIODS.forEach((period, i) => {
      const omega = (2 * Math.PI * offset) / period;
      const [co, si] = [Math.cos(omega), Math.sin(omega)];
      const [a, b] = [2 * i, 2 * i + 1];
      w[a * O + qc + a] = sharpness;
      w[b * O + qc + b] = sharpness;
      // k = R(+offset·ω)·[cos ωj, sin ωj] = [cos ω(j+offset), sin ω(j+offset)]
      w[a * O + kc + a] = co;
      w[b * O + kc + a] = -si;
      w[a * O + kc + b] = si;
      w[b * O + kc + b] = co;
    });
  });
  tf.tidy(() => {
    (policy.weights.wpe as tf.Variable).assign(tf.tensor2d(wpe, [C, D]));
    (policy.weights.wte as tf.Variable).assign(tf.tensor2d(wte, [V, D]));
    (policy.weights[qkvName] as tf.Variable).assign(tf.tensor2d(w, [D, O]));
  });
}

/**
 * [context × D] sinusoidal positions (Vaswani et al. 2017) scaled so each row's RMS is `rms`:
 * dimension 2i holds sin(p / 10000^(2i/D)), 2i+1 the cosine.
 */
export function sinusoidPositions(context: number, D: number, rms: number): Float32Array {
  const out = new Float32Array(context * D);
  // sin² + cos² = 1 per pair, so a row's mean square is 1/2 before scaling.
  const scale = rms * Math.SQRT2;
  for (let p = 0; p < context; p++) {
    for (let i = 0; i < D / 2; i++) {
      const angle = p / 10000 ** ((2 * i) / D);
      out[p * D + 2 * i] = scale * Math.sin(angle);
      out[p * D + 2 * i + 1] = scale * Math.cos(angle);
    }
  }
  return out;
}

/**
 * Sets `policy`'s position table (in place) to sinusoids at the token embeddings' scale (RMS
 * 0.02): a fixed offset such as "the previous token" is then a rotation a query can learn at
 * once, where random position rows must first be learned apart.
 */
function sinusoidInit(policy: Model): void {
  const { context, dModel } = policy.config;
  const table = tf.tensor2d(sinusoidPositions(context, dModel, 0.02), [context, dModel]);
  (policy.weights.wpe as tf.Variable).assign(table);
  table.dispose();
}

/** The names of the position-table starts, as pretrain's --position-init takes them. */
export const POSITION_INIT_NAMES = ['random', 'sinusoid', 'prevtok', 'prevtok2'] as const;
export type PositionInit = (typeof POSITION_INIT_NAMES)[number];

/** Each start by name: sets a fresh policy's weights in place (random keeps createPolicy's). */
export const POSITION_INITS: Record<PositionInit, (policy: Model) => Promise<void>> = {
  // createPolicy's own: normal, std 0.02.
  random: async () => {},
  sinusoid: async (policy) => sinusoidInit(policy),
  // Previous-token head in layer 0 (with its own sinusoids), and prevtok2 a second two tokens back.
  prevtok: (policy) => previousTokenInit(policy, { offsets: [1] }),
  prevtok2: (policy) => previousTokenInit(policy, { offsets: [1, 2] }),
};
