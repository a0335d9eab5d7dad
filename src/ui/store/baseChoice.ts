// Which base model the next run starts from, decided in one place: the setup panel shows it,
// config resolution takes its episode settings and context from it (core/resolve.ts), and the
// controller starts the run from it. 'auto' means the shipped model for the env and size.

import type { RunMeta } from '../../core/files/runFile.js';
import type { BaseModelEntry } from '../../core/model/modelIndex.js';
import { type BaseLayer, EPISODE_KEYS, episodeSettings } from '../../core/resolve.js';

export type ChosenBase =
  | { kind: 'model'; entry: BaseModelEntry }
  | { kind: 'run'; run: RunMeta }
  | { kind: 'fresh'; reason: 'chosen' | 'none-for-env' };

/**
 * The base for `env` and `size` under the setup's `choice` ('auto', '' = untrained,
 * `model:<id>`, `run:<runId>`). A choice made for another env falls back to 'auto'.
 */
export function chooseBase(
  choice: string,
  env: string,
  size: string,
  models: readonly BaseModelEntry[],
  runs: readonly RunMeta[],
): ChosenBase {
  const forEnv = models.filter((m) => m.env === env && m.size === size);
  if (choice === '') return { kind: 'fresh', reason: 'chosen' };
  if (choice.startsWith('model:')) {
    const entry = forEnv.find((m) => m.id === choice.slice(6));
    if (entry) return { kind: 'model', entry };
  }
  if (choice.startsWith('run:')) {
    const run = runs.find((r) => r.id === choice.slice(4) && r.hasCheckpoint && r.config.env === env);
    if (run) return { kind: 'run', run };
  }
  const first = forEnv[0];
  return first ? { kind: 'model', entry: first } : { kind: 'fresh', reason: 'none-for-env' };
}

/** The select's value for a chosen base. */
export function choiceValue(base: ChosenBase): string {
  return base.kind === 'model' ? `model:${base.entry.id}` : base.kind === 'run' ? `run:${base.run.id}` : '';
}

/**
 * The resolution layer of a chosen base: a shipped model's index settings (its context is the
 * one it was trained at), a run's episode settings (its checkpoint reads the run's context).
 */
export function baseLayerOf(base: ChosenBase): BaseLayer | null {
  switch (base.kind) {
    case 'model':
      return {
        label: `the base model ${base.entry.id}`,
        settings: episodeSettings(base.entry.settings),
        context: base.entry.settings.contextLength ?? null,
        ...(typeof base.entry.pretrain.vocabulary === 'number'
          ? { vocab: base.entry.pretrain.vocabulary }
          : {}),
      };
    case 'run': {
      const c = base.run.config;
      return {
        label: `the checkpoint of "${base.run.name}"`,
        settings: episodeSettings(Object.fromEntries(EPISODE_KEYS.map((k) => [k, c[k]]))),
        context: c.contextLength,
      };
    }
    case 'fresh':
      return null;
  }
}
