// The starting weights of a run, in the train worker: a shipped base model (fetched manifest +
// blob), a checkpoint the user brought, or — when no base model exists for the env — a fresh
// random-init policy over a vocabulary built from the env's own texts (shown as "untrained").
import type { Config } from '../core/config.js';
import { loadCheckpoint } from '../core/model/checkpoint.js';
import { modelConfig } from '../core/model/config.js';
import { createPolicy } from '../core/model/params.js';
import { promptTemplateTexts } from '../core/prompt.js';
import type { BaseModel } from '../core/rl/session.js';
import { Rng } from '../core/rng.js';
import { buildVocabulary, Tokenizer } from '../core/tokenizer.js';
import { makeEnv } from '../envs/registry.js';
import type { BaseChoice, RunStartInfo } from './protocol.js';

/** Words of the response format, so a fresh policy can at least spell it. */
const FORMAT_TEXTS = ['<think> I should go to the goal </think> <answer> go forward </answer>'];

/**
 * Texts an env writes: instructions, observations and valid actions along seeded random walks
 * (plus the search/click shapes of text-action envs). Deterministic for (envId, episodes).
 */
export function envTexts(envId: string, episodes = 24, steps = 12): string[] {
  const env = makeEnv(envId);
  const rng = new Rng(7).fork(envId);
  const texts: string[] = [];
  for (let e = 0; e < episodes; e++) {
    texts.push(env.reset(e), env.instruction());
    for (let s = 0; s < steps; s++) {
      const valid = env.validActions();
      const action =
        valid === null
          ? `search[${env.instruction().split(' ').slice(2, 6).join(' ')}]`
          : valid.length
            ? rng.choice(valid)
            : '';
      if (!action) break;
      texts.push(action);
      const r = env.step(action);
      texts.push(r.observation);
      if (r.done) break;
    }
  }
  return texts;
}

/** A fresh random-init policy for `config`'s env and model size. */
export function freshBase(config: Config): BaseModel {
  const vocab = buildVocabulary([...envTexts(config.env), ...promptTemplateTexts(), ...FORMAT_TEXTS]);
  const tokenizer = new Tokenizer(vocab);
  const mc = modelConfig(config.modelSize, tokenizer.size, config.contextLength);
  return { policy: createPolicy(mc, new Rng(config.seed).fork('fresh-base')), tokenizer };
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not fetch ${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** Loads the chosen base; the caller disposes `base.policy` when the run ends. */
export async function loadBase(
  choice: BaseChoice,
  config: Config,
): Promise<{ base: BaseModel; info: RunStartInfo }> {
  let base: BaseModel;
  let id = 'fresh';
  let label: string;
  switch (choice.kind) {
    case 'fresh':
      base = freshBase(config);
      label = `untrained ${config.modelSize} (random init)`;
      break;
    case 'url': {
      const manifest = JSON.parse(new TextDecoder().decode(await fetchBytes(choice.manifestUrl)));
      const loaded = loadCheckpoint(manifest, await fetchBytes(choice.blobUrl));
      base = { policy: loaded.policy, tokenizer: loaded.tokenizer };
      id = choice.id;
      label = `base model ${choice.id}`;
      break;
    }
    case 'checkpoint': {
      const loaded = loadCheckpoint(choice.manifest, choice.blob);
      base = { policy: loaded.policy, tokenizer: loaded.tokenizer };
      id = choice.id;
      label = `checkpoint ${choice.id}`;
      break;
    }
  }
  const parameters = base.policy.names.reduce((n, name) => n + (base.policy.weights[name]?.size ?? 0), 0);
  return {
    base,
    info: {
      baseId: id,
      baseLabel: label,
      untrained: choice.kind === 'fresh',
      parameters,
      vocabSize: base.tokenizer.size,
      context: base.policy.config.context,
    },
  };
}
