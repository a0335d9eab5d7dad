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
// Gradients may change all of it; it is an initialisation, not a constraint.
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
}

/**
 * Sets `policy`'s position table, the first 2P dims of its token embeddings and layer 0 head
 * 0's query and key columns (in place) so that head 0 attends to the previous token. Needs
 * head width ≥ 2P (P = 8: nano's and micro's 16 and 32 both do).
 */
export async function previousTokenInit(policy: Model, o: PreviousTokenInitOptions = {}): Promise<void> {
  const amplitude = o.amplitude ?? 0.05;
  const sharpness = o.sharpness ?? 3;
  const { dModel: D, context: C, vocabSize: V, nHeads } = policy.config;
  const P = 2 * PREVIOUS_TOKEN_PERIODS.length;
  if (D / nHeads < P) throw new Error(`previousTokenInit: head width ${D / nHeads} < ${P}`);
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
  // [D, 3D] row-major: w[in·3D + out]; head 0's query is out 0..K−1, its key out D..D+K−1.
  const w = (await policy.weights[qkvName]?.data())?.slice() as Float32Array;
  const O = 3 * D;
  for (let i = 0; i < D; i++) {
    w.fill(0, i * O, i * O + P);
    w.fill(0, i * O + D, i * O + D + P);
  }
  PREVIOUS_TOKEN_PERIODS.forEach((period, i) => {
    const omega = (2 * Math.PI) / period;
    const [co, si] = [Math.cos(omega), Math.sin(omega)];
    const [a, b] = [2 * i, 2 * i + 1];
    w[a * O + a] = sharpness;
    w[b * O + b] = sharpness;
    // k = R(+ω)·[cos ωj, sin ωj] = [cos ω(j+1), sin ω(j+1)]
    w[a * O + D + a] = co;
    w[b * O + D + a] = -si;
    w[a * O + D + b] = si;
    w[b * O + D + b] = co;
  });
  tf.tidy(() => {
    (policy.weights.wpe as tf.Variable).assign(tf.tensor2d(wpe, [C, D]));
    (policy.weights.wte as tf.Variable).assign(tf.tensor2d(wte, [V, D]));
    (policy.weights[qkvName] as tf.Variable).assign(tf.tensor2d(w, [D, O]));
  });
}
