// Fuzz of the playground's import path without a browser: parseFile (core/files/runFile.ts, a
// pure module) on mutated run and checkpoint files, then loadCheckpoint on whatever checkpoint
// it accepts — the same two gates an imported file passes in the app. parseFile promises
// never to throw; an accepted run has a valid config and is never live; an accepted
// checkpoint either loads or is refused with a message, leaking no tensor.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../core/config.js';
import { checkpointToFile, parseFile, type RunData, runToFile } from '../core/files/runFile.js';
import { loadCheckpoint, saveCheckpoint } from '../core/model/checkpoint.js';
import { createPolicy, disposeModel } from '../core/model/params.js';
import { Rng } from '../core/rng.js';
import { buildVocabulary, Tokenizer } from '../core/tokenizer.js';
import { isCleanError, mutateJson, mutateText } from './fuzz.js';

let runText = '';
let checkpointText = '';

beforeAll(async () => {
  await tf.setBackend('cpu');
  const tok = new Tokenizer(buildVocabulary(['go left go right']));
  const policy = createPolicy(
    { vocabSize: tok.size, dModel: 8, nLayers: 1, nHeads: 2, context: 16, mlpRatio: 2 },
    new Rng(1),
  );
  const saved = await saveCheckpoint({ policy, tokenizer: tok, meta: { iteration: 2 } });
  disposeModel(policy);
  const checkpoint = { manifest: saved.manifest, blob: saved.blob, iteration: 2 };
  const run: RunData = {
    meta: {
      id: 'r1',
      name: '<img src=x onerror=alert(1)> run',
      createdAt: 1000,
      updatedAt: 2000,
      status: 'running',
      config: { ...defaultConfig(), seed: 42 },
      iteration: 2,
      summary: null,
      base: { id: 'fresh', label: 'untrained nano', untrained: true },
      backend: 'wasm',
      hasCheckpoint: true,
    },
    rows: [
      { iteration: 0, 'rollout/successRate': 0.25 },
      { iteration: 1, 'rollout/successRate': 0.5 },
    ],
    events: [
      { type: 'live', iteration: 1, changes: { lr: 0.01 } },
      { type: 'error', iteration: 1, message: 'non-finite update skipped', consecutive: 1 },
    ],
    samples: [
      {
        iteration: 1,
        group: 0,
        seed: 17,
        instruction: 'go to the </script> goal',
        reward: 1,
        success: true,
        turns: [
          {
            observation: 'a <b>wall</b>',
            responseText: '<think> go </think> <answer> go left </answer>',
            tokens: ['go', 'left'],
            logps: [-0.5, -2],
            actions: ['go left'],
            valid: [true],
            reward: 1,
            penalised: false,
          },
        ],
      },
    ],
    checkpoint,
  };
  runText = runToFile(run);
  checkpointText = checkpointToFile('agent', checkpoint);
});

describe('imported file fuzz', () => {
  it('parseFile never throws; accepted files pass the app’s invariants and load or refuse', () => {
    const rng = new Rng(21);
    const before = tf.memory().numTensors;
    const outcomes = { refused: 0, runs: 0, checkpoints: 0, loaded: 0 };
    for (let i = 0; i < 600; i++) {
      const source = rng.bool(0.7) ? runText : checkpointText;
      const text = rng.bool(0.7)
        ? JSON.stringify(mutateJson(rng, JSON.parse(source), 3))
        : mutateText(rng, source);
      const parsed = parseFile(text);
      if (!parsed.ok) {
        expect(typeof parsed.message).toBe('string');
        expect(parsed.message.length).toBeGreaterThan(0);
        outcomes.refused++;
        continue;
      }
      let cp = null;
      if (parsed.kind === 'run') {
        outcomes.runs++;
        expect(validateConfig(parsed.run.meta.config).ok).toBe(true);
        expect(['running', 'paused']).not.toContain(parsed.run.meta.status);
        for (const row of parsed.run.rows) expect(Number.isInteger(row.iteration)).toBe(true);
        cp = parsed.run.checkpoint;
      } else {
        outcomes.checkpoints++;
        cp = parsed.checkpoint;
      }
      if (!cp) continue;
      try {
        const loaded = loadCheckpoint(cp.manifest, cp.blob);
        disposeModel(loaded.policy);
        outcomes.loaded++;
      } catch (err) {
        expect(isCleanError(err), String(err)).toBe(true);
      }
    }
    expect(tf.memory().numTensors).toBe(before);
    expect(outcomes.refused).toBeGreaterThan(50);
    expect(outcomes.runs).toBeGreaterThan(20);
    expect(outcomes.checkpoints).toBeGreaterThan(5);
    expect(outcomes.loaded).toBeGreaterThan(20);
  });

  it('keeps markup in names and texts as plain strings (escaping is the renderer’s job)', () => {
    const parsed = parseFile(runText);
    if (!parsed.ok || parsed.kind !== 'run') throw new Error('the unmutated run must parse');
    expect(parsed.run.meta.name).toBe('<img src=x onerror=alert(1)> run');
    expect(parsed.run.samples[0]!.instruction).toBe('go to the </script> goal');
    expect(parsed.run.meta.status).toBe('interrupted');
  });
});
