import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { buildVocabulary, Tokenizer } from '../tokenizer.js';
import { Adam } from './adam.js';
import { type CheckpointManifest, loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import type { ModelConfig } from './config.js';
import { createCritic, createPolicy, disposeModel, type Model, modelVariables } from './params.js';
import { predictValues, scoreSequences } from './scoring.js';

const tok = new Tokenizer(
  buildVocabulary(['You see a yellow key 1 step right', 'search[red shampoo] click[b0001]']),
);
const config: ModelConfig = {
  vocabSize: tok.size,
  dModel: 16,
  nLayers: 1,
  nHeads: 2,
  context: 64,
  mlpRatio: 4,
};
const seqs = [tok.encode('You see a yellow key 1 step right'), tok.encode('search[red shampoo]')];

/** A manifest through JSON text and a blob through a fresh, offset ArrayBuffer, as files would be. */
function viaFile(saved: { manifest: CheckpointManifest; blob: Uint8Array }): [unknown, Uint8Array] {
  const padded = new Uint8Array(saved.blob.byteLength + 3);
  padded.set(saved.blob, 3);
  return [JSON.parse(JSON.stringify(saved.manifest)), padded.subarray(3)];
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('checkpoints', () => {
  it('load to identical outputs, vocabulary and meta included', async () => {
    const policy = createPolicy(config, new Rng(1));
    const critic = createCritic(config, new Rng(2));
    const saved = await saveCheckpoint({
      policy,
      critic,
      tokenizer: tok,
      meta: { env: 'minigrid/Empty-5x5', iteration: 3 },
    });
    expect(saved.blob.byteLength).toBe(
      4 *
        [...policy.names, ...critic.names].reduce(
          (n, k) => n + (policy.weights[k] ?? critic.weights[k])!.size,
          0,
        ),
    );
    const [manifest, blob] = viaFile(saved);
    const loaded = loadCheckpoint(manifest, blob, {
      vocabulary: tok.vocab,
      policyConfig: config,
      criticConfig: config,
      needCritic: true,
    });
    expect(loaded.meta).toEqual({ env: 'minigrid/Empty-5x5', iteration: 3 });
    expect(loaded.tokenizer.encode('click[b0001]')).toEqual(tok.encode('click[b0001]'));
    const a = await scoreSequences(policy, seqs);
    const b = await scoreSequences(loaded.policy, seqs);
    expect(b.logps.map((r) => Array.from(r))).toEqual(a.logps.map((r) => Array.from(r)));
    const va = await predictValues(critic, seqs);
    const vb = await predictValues(loaded.critic!, seqs);
    expect(vb.map((r) => Array.from(r))).toEqual(va.map((r) => Array.from(r)));
    for (const m of [policy, critic, loaded.policy, loaded.critic!]) disposeModel(m);
  });

  it("carry Adam's state: a step after loading lands on the weights the original run's step gives", async () => {
    // A loss that touches every weight; two steps before saving, one after, on both copies.
    const step = (m: Model, opt: Adam) =>
      opt
        .minimize(
          () => tf.addN(modelVariables(m).map((v, i) => tf.sum(tf.mul(tf.sin(v), i + 1)))) as tf.Scalar,
          modelVariables(m),
          0.01,
        )
        .dispose();
    const values = async (m: Model) =>
      Promise.all(modelVariables(m).map(async (v) => Array.from(await v.data())));
    const policy = createPolicy(config, new Rng(1));
    const opt = new Adam({ epsilon: 1e-8 });
    step(policy, opt);
    step(policy, opt);
    const state = await opt.state(policy);
    expect(state.steps).toBe(2);
    expect(state.first).toHaveLength(policy.names.length);
    const position = { iteration: 2, note: 'plain data' };
    const saved = await saveCheckpoint({
      policy,
      tokenizer: tok,
      training: { position, optimizers: { policy: state } },
    });
    const [manifest, blob] = viaFile(saved);
    const loaded = loadCheckpoint(manifest, blob);
    expect(loaded.training?.position).toEqual(position);
    const opt2 = new Adam({ epsilon: 1e-8 });
    opt2.restore(loaded.policy, loaded.training!.optimizers.policy);
    step(policy, opt);
    step(loaded.policy, opt2);
    expect(await values(loaded.policy)).toEqual(await values(policy));

    // A moment that does not fit its weight, or is not finite, is refused by name.
    const m = JSON.parse(JSON.stringify(saved.manifest)) as CheckpointManifest;
    m.training!.optimizers.policy.first[0]!.shape = [1];
    expect(() => loadCheckpoint(m, saved.blob)).toThrow(/optimizer moment .*\/m does not match weight/);
    const poisoned = new Float32Array(saved.blob.slice().buffer);
    poisoned[saved.manifest.training!.optimizers.policy.second[0]!.offset] = Number.NaN;
    expect(() => loadCheckpoint(saved.manifest, new Uint8Array(poisoned.buffer))).toThrow(/non-finite value/);
    const noCritic = JSON.parse(JSON.stringify(saved.manifest)) as CheckpointManifest;
    noCritic.training!.optimizers.critic = noCritic.training!.optimizers.policy;
    expect(() => loadCheckpoint(noCritic, saved.blob)).toThrow(/critic optimizer but no critic/);
    for (const x of [policy, loaded.policy]) disposeModel(x);
    opt.dispose();
    opt2.dispose();
  });

  it('keep a version-2 (pieces) vocabulary, ids spelled the same after loading', async () => {
    const pieces = new Tokenizer(buildVocabulary(['search[red shampoo] click[b0001]'], { pieces: true }));
    const policy = createPolicy({ ...config, vocabSize: pieces.size }, new Rng(1));
    const [manifest, blob] = viaFile(await saveCheckpoint({ policy, tokenizer: pieces }));
    disposeModel(policy);
    const loaded = loadCheckpoint(manifest, blob, { vocabulary: pieces.vocab });
    expect(loaded.tokenizer.vocab.version).toBe(2);
    expect(loaded.tokenizer.encode('click[b0h7pty7dd]')).toEqual(pieces.encode('click[b0h7pty7dd]'));
    disposeModel(loaded.policy);
  });

  it('refuses mismatched vocabularies, configs and shapes, naming what differs', async () => {
    const policy = createPolicy(config, new Rng(1));
    const saved = await saveCheckpoint({ policy, tokenizer: tok });
    disposeModel(policy);
    const [manifest, blob] = viaFile(saved);
    const before = tf.memory().numTensors;
    const otherVocab = buildVocabulary(['You see a green key']);
    expect(() => loadCheckpoint(manifest, blob, { vocabulary: otherVocab })).toThrow(
      /vocabulary differs at id 25: file has "\[", expected "You" \(39 vs 30 tokens\)/,
    );
    expect(() => loadCheckpoint(manifest, blob, { policyConfig: { ...config, dModel: 32 } })).toThrow(
      /policy config dModel is 16, expected 32/,
    );
    expect(() => loadCheckpoint(manifest, blob, { needCritic: true })).toThrow(/no critic/);
    const bad = JSON.parse(JSON.stringify(manifest)) as CheckpointManifest;
    const wqkv = bad.policy.tensors.find((t) => t.name === 'h0.attn.wqkv')!;
    wqkv.shape = [16, 32];
    expect(() => loadCheckpoint(bad, blob)).toThrow(
      /weight h0\.attn\.wqkv has shape \[16,32\], expected \[16,48\]/,
    );
    expect(() => loadCheckpoint(manifest, blob.subarray(0, blob.byteLength - 4))).toThrow(/outside the blob/);
    expect(() => loadCheckpoint({ format: 'other' }, blob)).toThrow(/not a starpo-checkpoint/);
    const renamed = JSON.parse(JSON.stringify(manifest)) as CheckpointManifest;
    renamed.policy.tensors[0]!.name = 'embedding';
    expect(() => loadCheckpoint(renamed, blob)).toThrow(/weight wte is missing/);
    expect(tf.memory().numTensors).toBe(before);
  });
});
