// Fuzz of imported model files (docs/security.md, "Input"): checkpoint manifests and blobs (loadCheckpoint)
// and the models index (parseModelIndex). Mutated copies of a real checkpoint either load —
// then they are usable and free every tensor on dispose — or are refused with a message of our
// own: never a TypeError, a hang, a leaked tensor or a huge allocation. Hand-made hostile
// manifests (huge shapes and layer counts, negative or far offsets, NaN weights) are refused
// before any weight is made.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CheckpointManifest, loadCheckpoint, saveCheckpoint } from '../core/model/checkpoint.js';
import { MAX_CHECKPOINT_BYTES } from '../core/model/manifest.js';
import { type BaseModelEntry, parseModelIndex } from '../core/model/modelIndex.js';
import { createCritic, createPolicy, disposeModel } from '../core/model/params.js';
import { Rng } from '../core/rng.js';
import { buildVocabulary, Tokenizer } from '../core/tokenizer.js';
import { isCleanError, mutateJson, randomJson } from './fuzz.js';

const tok = new Tokenizer(buildVocabulary(['go left go right the goal is left', 'search[red shampoo]']));
const mc = { vocabSize: tok.size, dModel: 8, nLayers: 1, nHeads: 2, context: 16, mlpRatio: 2 };
let manifest: CheckpointManifest;
let blob: Uint8Array;

const MANIFEST_KEYS = [
  'format',
  'version',
  'vocabulary',
  'tokens',
  'atoms',
  'policy',
  'critic',
  'kind',
  'config',
];
const REFUSAL = /^(checkpoint|Tokenizer|model config)\b/;

/** Loads and disposes; returns the refusal, or null when it loaded. */
function attempt(m: unknown, b: Uint8Array): Error | null {
  try {
    const loaded = loadCheckpoint(m, b);
    disposeModel(loaded.policy);
    if (loaded.critic) disposeModel(loaded.critic);
    return null;
  } catch (err) {
    expect(isCleanError(err), String(err)).toBe(true);
    expect((err as Error).message).toMatch(REFUSAL);
    return err as Error;
  }
}

beforeAll(async () => {
  await tf.setBackend('cpu');
  const policy = createPolicy(mc, new Rng(1));
  const critic = createCritic(mc, new Rng(2));
  const saved = await saveCheckpoint({ policy, critic, tokenizer: tok, meta: { iteration: 3 } });
  disposeModel(policy);
  disposeModel(critic);
  manifest = JSON.parse(JSON.stringify(saved.manifest));
  blob = saved.blob;
});

describe('checkpoint fuzz', () => {
  it('mutated manifests load or are refused cleanly, leaking no tensor', () => {
    const rng = new Rng(11);
    const before = tf.memory().numTensors;
    let loaded = 0;
    for (let i = 0; i < 1500; i++) {
      const m =
        i % 10 === 0 ? randomJson(rng, 4, MANIFEST_KEYS) : mutateJson(rng, manifest, 2, MANIFEST_KEYS);
      if (attempt(m, blob) === null) loaded++;
    }
    expect(tf.memory().numTensors).toBe(before);
    // Edits of meta or of unused keys keep the file loadable: the test exercises both outcomes.
    expect(loaded).toBeGreaterThan(20);
  });

  it('mutated blobs load or are refused cleanly', () => {
    const rng = new Rng(12);
    const before = tf.memory().numTensors;
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      let b = blob.slice();
      const op = rng.int(0, 4);
      if (op === 0) b = b.subarray(0, rng.int(0, b.length));
      else if (op === 1)
        b = Uint8Array.from([...b, ...Array.from({ length: rng.int(1, 9) }, () => rng.int(0, 256))]);
      else if (op === 2) for (let k = rng.int(1, 20); k > 0; k--) b[rng.int(0, b.length)] = rng.int(0, 256);
      // A NaN/Inf bit pattern (exponent all ones) somewhere in the floats.
      else
        new DataView(b.buffer).setUint32(
          4 * rng.int(0, b.length / 4),
          rng.choice([0x7fc00000, 0x7f800000, 0xff800000]),
          true,
        );
      if (attempt(manifest, b) !== null) refused++;
    }
    expect(refused).toBeGreaterThan(100);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('refuses hostile manifests by name before allocating', () => {
    const hostile = (edit: (m: CheckpointManifest) => void): Error => {
      const m = JSON.parse(JSON.stringify(manifest)) as CheckpointManifest;
      edit(m);
      const err = attempt(m, blob);
      expect(err).not.toBeNull();
      return err as Error;
    };
    const wte = (m: CheckpointManifest) => m.policy.tensors.find((t) => t.name === 'wte')!;
    expect(hostile((m) => (m.policy.config.nLayers = 1e9)).message).toMatch(
      /manifest field policy\.config\.nLayers: must be at most 48/,
    );
    expect(hostile((m) => (m.policy.config.dModel = 1e6)).message).toMatch(/policy\.config\.dModel/);
    expect(hostile((m) => (wte(m).shape = [1e9, 1e9])).message).toMatch(/tensors\.0\.shape\.0/);
    expect(hostile((m) => (wte(m).offset = -4)).message).toMatch(/offset: must not be negative/);
    expect(hostile((m) => (wte(m).offset = 1e15)).message).toMatch(/weight wte lies outside the blob/);
    expect(hostile((m) => (wte(m).offset = Number.NaN)).message).toMatch(/tensors\.0\.offset/);
    expect(hostile((m) => (wte(m).length = 2.5)).message).toMatch(/whole number/);
    expect(hostile((m) => ((m.policy as unknown as { tensors: unknown }).tensors = 'all')).message).toMatch(
      /policy\.tensors/,
    );
    expect(
      hostile((m) => (m.vocabulary.tokens = Array.from({ length: 200_000 }, (_, i) => `t${i}`))).message,
    ).toMatch(/more than 100000 tokens/);
    expect(hostile((m) => (m.policy.kind = 'critic')).message).toMatch(/policy entry .*kind critic/);
    const nan = blob.slice();
    new DataView(nan.buffer).setFloat32(4 * 5, Number.NaN, true);
    expect(attempt(manifest, nan)?.message).toMatch(
      /policy weight wte holds a non-finite value \(NaN\) at element 5/,
    );
    const huge = { byteLength: MAX_CHECKPOINT_BYTES + 4 } as Uint8Array;
    expect(attempt(manifest, huge)?.message).toMatch(/over the 268435456-byte limit/);
  });

  it('loads the unmutated file (the fuzz starts from a valid one)', () => {
    expect(attempt(manifest, blob)).toBeNull();
  });
});

describe('models index fuzz', () => {
  const entry: BaseModelEntry = {
    id: 'minigrid-empty-nano',
    env: 'minigrid/Empty-5x5',
    size: 'nano',
    manifest: 'empty.json',
    blob: 'empty.bin',
    params: 120000,
    greedySuccess: 0.2,
    sampledSuccess: 0.3,
    settings: { maxTurns: 5 },
    pretrain: { epochs: 3, lr: 0.001, env: 'minigrid/Empty-5x5' },
  };

  it('mutated indexes parse or are refused naming the entry and field', () => {
    const rng = new Rng(13);
    let parsed = 0;
    for (let i = 0; i < 2000; i++) {
      const index = mutateJson(rng, [entry, { ...entry, id: 'b', size: 'micro' }], 2, Object.keys(entry));
      try {
        const r = parseModelIndex(index);
        for (const e of r) {
          expect(Number.isInteger(e.params) && e.params > 0).toBe(true);
          expect(e.greedySuccess).toBeGreaterThanOrEqual(0);
          expect(e.greedySuccess).toBeLessThanOrEqual(1);
        }
        parsed++;
      } catch (err) {
        expect(isCleanError(err), String(err)).toBe(true);
        expect((err as Error).message).toMatch(/^models index: entry \S+ field \S*/);
      }
    }
    expect(parsed).toBeGreaterThan(20);
  });
});
