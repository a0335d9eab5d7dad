// The starting weights of a run, in the train worker: a shipped base model (fetched manifest +
// blob), a checkpoint the user brought, or — when no base model exists for the env — a fresh
// random-init policy built as everywhere else (envs/untrainedBase.ts; shown as "untrained").
import type { Config } from '../core/config.js';
import { loadCheckpoint } from '../core/model/checkpoint.js';
import type { BaseModel } from '../core/rl/session.js';
import { untrainedBase } from '../envs/untrainedBase.js';
import type { BaseChoice, RunStartInfo } from './protocol.js';

/** A fresh random-init policy for `config`'s env and model size (envs/untrainedBase.ts). */
export function freshBase(config: Config): BaseModel {
  return untrainedBase(config.env, config.modelSize, config.contextLength, config.seed);
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
