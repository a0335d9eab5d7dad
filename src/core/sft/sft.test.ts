// SFT's loss on the target rows only: the same value and gradients as the masked means of the
// full-sequence log-probs (the RL scorer's path; agent tokens plus weighted env tokens), on the
// cpu and wasm backends; batch layout and the learning-rate schedule by hand.
import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import type { ModelConfig } from '../model/config.js';
import { createPolicy, disposeModel, modelVariables } from '../model/params.js';
import { selectRows } from '../model/rows.js';
import { policyLogProbs } from '../model/scoring.js';
import { Rng } from '../rng.js';
import { buildVocabulary, Tokenizer } from '../tokenizer.js';
import { maskedMean } from '../variants/lossAggs.js';
import { copyDrills, type SftSequence, sftBatch, sftLearningRate, sftLoss, sftSequences } from './sft.js';

const config: ModelConfig = { vocabSize: 23, dModel: 16, nLayers: 1, nHeads: 2, context: 64, mlpRatio: 4 };

describe('sftBatch', () => {
  it('pads to the bucket and lists target positions b·T + t with the next token', () => {
    const seqs: SftSequence[] = [
      { ids: [1, 5, 6, 7], mask: Float32Array.from([0, 1, 1]) },
      { ids: [1, 8, 9], mask: Float32Array.from([1, 0]) },
    ];
    const b = sftBatch(seqs, 64);
    expect([b.B, b.T]).toEqual([2, 32]);
    expect(Array.from(b.tokens.slice(0, 5))).toEqual([1, 5, 6, 7, 0]);
    expect(Array.from(b.tokens.slice(32, 35))).toEqual([1, 8, 9]);
    // row 0: t = 1 → 6, t = 2 → 7; row 1: t = 0 → 8 at 32.
    expect(Array.from(b.positions)).toEqual([1, 2, 32]);
    expect(Array.from(b.targets)).toEqual([6, 7, 8]);
    expect(Array.from(b.weights)).toEqual([1 / 3, 1 / 3, 1 / 3].map(Math.fround));
    expect(b.agentTargets).toBe(3);
  });

  it('adds the env tokens after the agent ones, weighted to envWeight × their mean', () => {
    const seqs: SftSequence[] = [
      { ids: [1, 5, 6, 7], mask: Float32Array.from([0, 0, 1]), envMask: Float32Array.from([1, 1, 0]) },
    ];
    const b = sftBatch(seqs, 64, 0.5);
    expect(Array.from(b.positions)).toEqual([2, 0, 1]);
    expect(Array.from(b.targets)).toEqual([7, 5, 6]);
    expect(Array.from(b.weights)).toEqual([1, 0.25, 0.25]);
    expect(b.agentTargets).toBe(1);
    // envWeight 0 (the default) leaves them out.
    expect(Array.from(sftBatch(seqs, 64).positions)).toEqual([2]);
  });
});

describe.each(['cpu', 'wasm'] as const)('sftLoss on %s', (backend) => {
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  it('equals the masked mean of the full log-probs, gradients included', async () => {
    await setupNodeBackend(backend);
    const rng = new Rng(4);
    const policy = createPolicy(config, rng.fork('w'));
    const seqs: SftSequence[] = [10, 7, 12].map((n) => ({
      ids: Array.from({ length: n }, () => rng.int(1, config.vocabSize)),
      mask: Float32Array.from({ length: n - 1 }, (_, t) => (t >= 3 ? 1 : 0)),
      envMask: Float32Array.from({ length: n - 1 }, (_, t) => (t >= 1 && t < 3 ? 1 : 0)),
    }));
    const envWeight = 0.3;
    const b = sftBatch(seqs, config.context, envWeight);
    const tokens = tf.tensor2d(b.tokens, [b.B, b.T], 'int32');
    const positions = tf.tensor1d(b.positions, 'int32');
    const targets = tf.tensor1d(b.targets, 'int32');
    const weights = tf.tensor1d(b.weights);
    const flat = (pick: (s: SftSequence) => Float32Array) => {
      const m = new Float32Array(b.B * (b.T - 1));
      for (const [i, s] of seqs.entries()) m.set(pick(s), i * (b.T - 1));
      return tf.tensor2d(m, [b.B, b.T - 1]);
    };
    const mask = flat((s) => s.mask);
    const envMask = flat((s) => s.envMask as Float32Array);
    const vars = modelVariables(policy);
    const full = () => {
      const { logp, entropy } = policyLogProbs(policy, tokens);
      entropy.dispose();
      return tf.neg(maskedMean(logp, mask).add(maskedMean(logp, envMask).mul(envWeight))) as tf.Scalar;
    };
    const a = tf.variableGrads(full, vars);
    const c = tf.variableGrads(() => sftLoss(policy, tokens, positions, targets, weights), vars);
    expect((await c.value.data())[0]).toBeCloseTo((await a.value.data())[0] as number, 5);
    for (const name of Object.keys(a.grads)) {
      const ga = await (a.grads[name] as tf.Tensor).data();
      const gc = await (c.grads[name] as tf.Tensor).data();
      let worst = 0;
      for (let i = 0; i < ga.length; i++)
        worst = Math.max(worst, Math.abs((ga[i] as number) - (gc[i] as number)));
      expect(worst, name).toBeLessThan(1e-5);
    }
    tf.dispose([
      tokens,
      positions,
      targets,
      weights,
      mask,
      envMask,
      a.value,
      c.value,
      ...Object.values(a.grads),
      ...Object.values(c.grads),
    ]);
    disposeModel(policy);
  });

  it('selectRows scatters its gradient back to the picked rows', async () => {
    await setupNodeBackend(backend);
    const x = tf.tensor2d([1, 2, 3, 4, 5, 6], [3, 2]);
    const idx = tf.tensor1d([2, 0], 'int32');
    const g = tf.grad((v: tf.Tensor) =>
      selectRows(v as tf.Tensor2D, idx)
        .mul(tf.tensor2d([1, 2, 3, 4], [2, 2]))
        .sum(),
    )(x);
    // d/dx of 1·x[2,0] + 2·x[2,1] + 3·x[0,0] + 4·x[0,1].
    expect(Array.from(await g.data())).toEqual([3, 4, 0, 0, 1, 2]);
    expect(Array.from(await selectRows(x, idx).data())).toEqual([5, 6, 1, 2]);
    tf.dispose([x, idx, g]);
  });
});

describe('sftLearningRate', () => {
  it('warms up linearly, then holds or decays by cosine to 10% at the last step', () => {
    const o = { lr: 1, steps: 11, warmupSteps: 2 };
    expect([0, 1, 2, 10].map((k) => sftLearningRate(o, k))).toEqual([0.5, 1, 1, 1]);
    const c = { ...o, schedule: 'cosine' as const };
    // after the warm-up, progress (k − 2) / 8: 0 → 1, 0.5 → 0.55, 1 → 0.1.
    expect(sftLearningRate(c, 2)).toBeCloseTo(1, 12);
    expect(sftLearningRate(c, 6)).toBeCloseTo(0.55, 12);
    expect(sftLearningRate(c, 10)).toBeCloseTo(0.1, 12);
  });
});

describe('copyDrills', () => {
  it('repeats a span of a text window after a newline, the repeat as target', () => {
    const texts = ['one two three four five six seven eight', 'a b c d e'];
    const tok = new Tokenizer(buildVocabulary(texts));
    const drills = copyDrills(tok, texts, 50, new Rng(3), { maxSource: 6, minSpan: 2, maxSpan: 4 });
    const nl = tok.idOf('\n') as number;
    for (const d of drills) {
      expect(d.ids[0]).toBe(tok.special['<bos>']);
      const cut = d.ids.indexOf(nl);
      const source = d.ids.slice(1, cut);
      const span = d.ids.slice(cut + 1);
      expect(source.length).toBeLessThanOrEqual(6);
      expect(span.length).toBeGreaterThanOrEqual(2);
      expect(span.length).toBeLessThanOrEqual(4);
      // The span occurs in the window, and exactly its tokens are targets.
      const at = source.findIndex((_, i) => span.every((id, j) => source[i + j] === id));
      expect(at).toBeGreaterThanOrEqual(0);
      expect(Array.from(d.mask).reduce((a, b) => a + b, 0)).toBe(span.length);
      expect(Array.from(d.mask.slice(d.mask.length - span.length))).toEqual(span.map(() => 1));
    }
    // Seeded: the same rng seed gives the same drills.
    expect(copyDrills(tok, texts, 50, new Rng(3), { maxSource: 6, minSpan: 2, maxSpan: 4 })).toEqual(drills);
  });
});

describe('sftSequences', () => {
  it('makes one window per turn at history 1 and leaves out those before fromTurn', () => {
    const turns = ['go north', 'go east', 'pick key'].map((text, i) => ({
      observation: `room ${i}`,
      actionsLeft: 3 - i,
      response: { text: `<think> ok </think> <answer> ${text} </answer>` },
      reward: 0,
    }));
    const texts = [
      'find the key turn state actions left reward',
      ...turns.flatMap((t) => [t.observation, t.response.text]),
    ];
    const tok = new Tokenizer(buildVocabulary(texts));
    const ex = [{ instruction: 'find the key', turns }];
    const all = sftSequences(tok, ex, 1, 128);
    expect(all).toHaveLength(3);
    // Each window ends with its own turn's response, the turn numbers as the rollout shows them.
    expect(all.map((s) => /turn \d/.exec(tok.decode(s.ids))?.[0])).toEqual(['turn 1', 'turn 2', 'turn 3']);
    const later = sftSequences(tok, ex, 1, 128, 2);
    expect(later).toEqual(all.slice(2));
    expect(sftSequences(tok, ex, 1, 128, 1)).toEqual(all.slice(1));
  });
});
