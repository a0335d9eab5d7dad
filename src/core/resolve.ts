// One config resolution for every caller (docs/architecture.md, "One config, in the page and in
// Node"): the CLI's train, sweep, study, bench and soak, and the browser's setup panel, URL hash, tour and
// in-browser sweeps all build a run's config here, so the same preset and seed give the same
// run in Node and in the page. Layers, later ones winning:
//   defaults ← the base model's episode settings ← the algorithm's switches ← the preset's
//   overrides ← the user's edits (form, URL hash, CLI flags, config file).
// An algorithm the user picked (an edit) other than the preset's sets its switches above the preset's overrides, so
// picking starpo-ppo over a StarPO-S preset turns the filter off, as the algorithm table says.
// The base model also bounds what can run: its context is a limit, not only a default.
import {
  ALGORITHM_NAMES,
  type Config,
  type ConfigKey,
  defaultConfig,
  type FieldError,
  validateConfig,
} from './config.js';
import { memoryField, memoryRefusal } from './model/memory.js';
import { PRESETS } from './presets.js';
import { ALGORITHMS } from './variants/algorithms.js';

/** The config fields a base model is trained for (its episode settings). */
export const EPISODE_KEYS = [
  'contextLength',
  'maxTurns',
  'maxActionsPerTurn',
  'maxActionsPerTraj',
  'historyTurns',
  'maxTokensPerTurn',
] as const satisfies readonly ConfigKey[];

/** What a run starts from, as far as its config is concerned. */
export interface BaseLayer {
  /** Shown in errors: "the base model minigrid-doorkey-5x5-nano". */
  label: string;
  /** Episode settings the model was trained with (index entry or checkpoint meta). */
  settings: Partial<Record<(typeof EPISODE_KEYS)[number], number>>;
  /** Longest sequence the model's position table holds; null for an untrained base (built to fit). */
  context: number | null;
  /** The model's vocabulary size, for the memory estimate (absent: unknown). */
  vocab?: number;
}

/** The memory a run may use (core/model/memory.ts), when the caller knows its backend. */
export interface MemoryBudget {
  backend: string;
  bytes: number;
}

/** Vocabulary assumed for the estimate when the base does not say (an untrained base's is small). */
const UNKNOWN_VOCAB = 512;

export interface ConfigLayers {
  /** The base model's layer; absent for an untrained base. */
  base?: BaseLayer | null;
  /** A preset name of core/presets.ts; absent or null for none. */
  preset?: string | null;
  /** The user's edits, applied last. */
  edits?: Partial<Config>;
}

/** Which layer a field's value came from (the form marks base-model and preset values). */
export type FieldSource = 'default' | 'base' | 'algorithm' | 'preset' | 'edit';

export interface Resolved {
  /** The merged values, valid or not (the form shows them). */
  values: Config;
  sources: Record<ConfigKey, FieldSource>;
  /** Empty when `values` is a valid, runnable config. */
  errors: FieldError[];
}

/** The env and model size the layers pick (the caller looks up the base model for them). */
export function layersEnv(layers: Omit<ConfigLayers, 'base'>): {
  env: string;
  modelSize: Config['modelSize'];
} {
  const preset = layers.preset ? PRESETS[layers.preset] : undefined;
  const d = defaultConfig();
  return {
    env: layers.edits?.env ?? preset?.overrides.env ?? d.env,
    modelSize: layers.edits?.modelSize ?? preset?.overrides.modelSize ?? d.modelSize,
  };
}

/** Every episode setting: a base model's record, as pretrain or a run writes it, holds them all. */
export type EpisodeSettings = Record<(typeof EPISODE_KEYS)[number], number>;

/** Only the episode keys of `settings`, so a stray index field cannot set anything else. */
export function episodeSettings(settings: Record<string, unknown> | undefined): BaseLayer['settings'] {
  const out: BaseLayer['settings'] = {};
  for (const k of EPISODE_KEYS) {
    const v = settings?.[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/**
 * The base layer of a checkpoint manifest: its episode settings (`meta.settings`, written by
 * pretrain and by runs; `settings` overrides them, e.g. a models-index entry) and its context.
 */
export function manifestLayer(
  manifest: {
    policy?: { config?: { context?: number; vocabSize?: number } };
    meta?: Record<string, unknown>;
  },
  label: string,
  settings?: Record<string, unknown>,
): BaseLayer {
  const meta = manifest.meta?.settings as Record<string, unknown> | undefined;
  const context = manifest.policy?.config?.context;
  const vocab = (manifest.policy?.config as { vocabSize?: unknown } | undefined)?.vocabSize;
  return {
    label,
    settings: episodeSettings({ ...meta, ...settings }),
    context: typeof context === 'number' ? context : null,
    ...(typeof vocab === 'number' ? { vocab } : {}),
  };
}

/** Errors of a config the base model cannot run (beyond the field ranges). */
export function baseErrors(config: Config, base: BaseLayer | null | undefined): FieldError[] {
  if (!base || base.context === null || config.contextLength <= base.context) return [];
  return [
    {
      field: 'contextLength',
      message: `must be at most ${base.context}: ${base.label} reads ${base.context} tokens (lower it, or choose the untrained base)`,
    },
  ];
}

/**
 * Merges the layers and validates the result (field ranges, cross-field rules, the base
 * model's limits and, with `memory`, whether its largest step fits the backend). `knownEnvs`,
 * when given, also checks the env id. Unknown preset names are an error on `(preset)`; values
 * are still returned for the form.
 */
export function resolveConfig(
  layers: ConfigLayers,
  knownEnvs?: readonly string[],
  memory?: MemoryBudget,
): Resolved {
  const errors: FieldError[] = [];
  const preset = layers.preset ? PRESETS[layers.preset] : undefined;
  if (layers.preset && !preset)
    errors.push({
      field: '(preset)',
      message: `"${layers.preset}" is not a preset (known: ${Object.keys(PRESETS).join(', ')})`,
    });
  const edits = layers.edits ?? {};
  const values: Record<string, unknown> = { ...defaultConfig() };
  const sources = Object.fromEntries(Object.keys(values).map((k) => [k, 'default'])) as Record<
    ConfigKey,
    FieldSource
  >;
  const put = (patch: Record<string, unknown>, source: FieldSource) => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      values[k] = v;
      sources[k as ConfigKey] = source;
    }
  };
  const switchesOf = (name: unknown) =>
    (ALGORITHM_NAMES as readonly unknown[]).includes(name)
      ? { ...ALGORITHMS[name as Config['algorithm']].switches, algorithm: name }
      : {};
  put(layers.base?.settings ?? {}, 'base');
  // Picking the preset's own algorithm is no change: the preset's overrides stand.
  const edited = edits.algorithm !== undefined && edits.algorithm !== preset?.algorithm;
  if (!edited) put(switchesOf(preset?.algorithm ?? values.algorithm), 'algorithm');
  if (preset) put({ algorithm: preset.algorithm, ...preset.overrides }, 'preset');
  if (edited) put(switchesOf(edits.algorithm), 'algorithm');
  put(edits as Record<string, unknown>, 'edit');
  const r = validateConfig(values, knownEnvs);
  if (!r.ok) errors.push(...r.errors);
  else errors.push(...baseErrors(r.config, layers.base));
  if (r.ok && memory && errors.length === 0) {
    const refusal = memoryRefusal(
      r.config,
      layers.base?.vocab ?? UNKNOWN_VOCAB,
      memory.backend,
      memory.bytes,
    );
    if (refusal)
      errors.push({
        field: memoryField(r.config, layers.base?.vocab ?? UNKNOWN_VOCAB, memory.bytes),
        message: `this run ${refusal}`,
      });
  }
  return { values: values as unknown as Config, sources, errors };
}
