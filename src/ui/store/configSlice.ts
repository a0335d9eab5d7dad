// The experiment setup as its layers (core/resolve.ts): the preset the user chose and the
// fields they edited, resolved over the base model's episode settings into the values the form
// shows, where each value came from, and field-named errors. `config` is the last runnable
// resolution: what Start runs. An edit that does not validate stays an edit (shown with its
// error) until the user changes it, so editing another field never reverts it silently; text
// that does not even parse stays a draft.
import type { StateCreator } from 'zustand';
import {
  type Config,
  type ConfigKey,
  FIELDS,
  type FieldError,
  fieldByKey,
  parseFieldText,
} from '../../core/config.js';
import { EPISODE_KEYS, resolveConfig } from '../../core/resolve.js';
import { decodeHashFields } from '../../core/urlHash.js';
import { ALGORITHMS } from '../../core/variants/algorithms.js';
import { envIds } from '../../envs/registry.js';
import { setupLayers } from './setupLayers.js';
import type { AppState, ConfigSlice } from './types.js';

/** The experiment the page opens with: the echo-trap preset, ready to Start. */
export const START_PRESET = 'echo-trap';

/** Edits a preset click keeps: the machine's choice, not the experiment's. */
const KEPT_ACROSS_PRESETS: readonly ConfigKey[] = ['backend'];

/**
 * Whether the setup differs from its preset: an edit of any experiment field (the backend, a
 * machine's choice, does not count). An edited preset is no longer shown as the current one.
 */
export function presetEdited(edits: Partial<Config>): boolean {
  return Object.keys(edits).some((k) => !KEPT_ACROSS_PRESETS.includes(k as ConfigKey));
}

const ENV_IDS = envIds();
const SWITCH_KEYS = Object.keys(ALGORITHMS['starpo-ppo'].switches) as ConfigKey[];

/** Drops the edits and drafts of `keys`. */
function without<T extends object>(o: T, keys: readonly string[]): T {
  const out = { ...o } as Record<string, unknown>;
  for (const k of keys) delete out[k];
  return out as T;
}

/**
 * The fewest edits of `edits` that still give `target` over the start preset: a link (which
 * carries every field) whose values are the preset's own loads as the preset, not "(edited)".
 * An edit is dropped only if the setup without it resolves to the same value.
 */
function minimalEdits(
  s: AppState,
  target: Config,
  edits: Partial<Config>,
  preset: string | null = START_PRESET,
): Partial<Config> {
  let kept: Partial<Config> = {};
  const differs = (config: Config) =>
    (Object.keys(edits) as ConfigKey[]).filter(
      (k) => JSON.stringify(config[k]) !== JSON.stringify(target[k]),
    );
  // Add back, in rounds, the edits whose field the setup without them resolves differently (an
  // env edit changes the base model, and with it other fields' values).
  for (let guard = 0; guard <= FIELDS.length; guard++) {
    const missing = differs(resolved(s, preset, kept, {}).config).filter((k) => !(k in kept));
    if (missing.length === 0) break;
    kept = { ...kept, ...Object.fromEntries(missing.map((k) => [k, edits[k]])) };
  }
  return kept;
}

/** The state after resolving `preset` and `edits` over the base the setup chooses. */
function resolved(
  s: AppState,
  preset: string | null,
  edits: Partial<Config>,
  drafts: Record<string, string>,
): Pick<ConfigSlice, 'config' | 'values' | 'sources' | 'preset' | 'edits' | 'drafts' | 'configErrors'> {
  const layers = setupLayers(s, preset, edits);
  const r = resolveConfig(layers, ENV_IDS, layers.memory);
  const draftErrors: FieldError[] = [];
  for (const [key, text] of Object.entries(drafts)) {
    const f = fieldByKey.get(key);
    if (!f) continue;
    try {
      parseFieldText(f, text);
    } catch (err) {
      draftErrors.push({ field: key, message: (err as Error).message.replace(`${key}: `, '') });
    }
  }
  const drafted = new Set(draftErrors.map((e) => e.field));
  const configErrors = [...draftErrors, ...r.errors.filter((e) => !drafted.has(e.field))];
  return {
    preset,
    edits,
    drafts,
    values: r.values,
    sources: r.sources,
    configErrors,
    config: configErrors.length === 0 ? r.values : s.config,
  };
}

function initial(): Pick<
  ConfigSlice,
  'config' | 'values' | 'sources' | 'preset' | 'edits' | 'drafts' | 'configErrors'
> {
  const r = resolveConfig({ preset: START_PRESET }, ENV_IDS);
  return {
    config: r.values,
    values: r.values,
    sources: r.sources,
    preset: START_PRESET,
    edits: {},
    drafts: {},
    configErrors: r.errors,
  };
}

/**
 * The setup a link gives over the start preset, with the errors of its refused fields. A rejected
 * value is named in the errors but never enters the form: the field keeps the preset's (or the
 * base model's) value — or, for a hash edited in an open tab, the value the setup had (`keep`: its
 * edits) — so the form shows what would actually run. Only the edits that change the setup stay.
 */
function linkedSetup(
  s: AppState,
  hash: string,
  keep: Partial<Config>,
): { state: ReturnType<typeof resolved>; errors: FieldError[] } {
  const { values, errors } = decodeHashFields(hash);
  // Validation reports some errors only once others are fixed (the env is checked after the
  // ranges), so drop refused fields until none of the link's own fields is refused.
  let fromLink: Partial<Config> = values;
  let next = resolved(s, START_PRESET, { ...keep, ...fromLink }, {});
  const refused: FieldError[] = [];
  for (let guard = 0; guard < FIELDS.length; guard++) {
    const bad = next.configErrors.filter((e) => e.field in fromLink);
    if (bad.length === 0) break;
    refused.push(...bad);
    fromLink = without(
      fromLink,
      bad.map((e) => e.field),
    );
    next = resolved(s, START_PRESET, { ...keep, ...fromLink }, {});
  }
  const state = resolved(s, START_PRESET, minimalEdits(s, next.config, { ...keep, ...fromLink }), {});
  const seen = new Set<string>();
  const all = [...errors, ...refused, ...state.configErrors].filter((e) => {
    const k = `${e.field}\u0000${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { state, errors: all };
}

export const createConfigSlice: StateCreator<AppState, [], [], ConfigSlice> = (set, get) => ({
  ...initial(),
  setField(key, text) {
    const field = fieldByKey.get(key);
    if (!field) return;
    const s = get();
    let value: unknown;
    try {
      value = parseFieldText(field, text);
    } catch {
      set(resolved(s, s.preset, s.edits, { ...s.drafts, [key]: text }));
      return;
    }
    let edits: Partial<Config> = { ...s.edits, [key]: value };
    let drafts = without(s.drafts, [key]);
    // A new env or model size has its own base model: show that model's episode settings.
    if ((key === 'env' || key === 'modelSize') && value !== s.values[key]) {
      edits = without(edits, EPISODE_KEYS);
      drafts = without(drafts, EPISODE_KEYS);
    }
    // Choosing an algorithm sets all of its switches (core/rl/algorithms.ts).
    if (key === 'algorithm') {
      edits = without(edits, SWITCH_KEYS);
      drafts = without(drafts, SWITCH_KEYS);
    }
    set(resolved(s, s.preset, edits, drafts));
  },
  applyPreset(name) {
    const s = get();
    const kept: Partial<Config> = {};
    for (const k of KEPT_ACROSS_PRESETS) if (k in s.edits) Object.assign(kept, { [k]: s.edits[k] });
    const next = resolved(s, name, kept, {});
    set(next);
    return next.configErrors;
  },
  applyOverrides(overrides) {
    const s = get();
    let edits: Partial<Config> = { ...s.edits, ...overrides };
    if (overrides.algorithm) edits = { ...without(edits, SWITCH_KEYS), ...overrides };
    const next = resolved(s, s.preset, edits, without(s.drafts, Object.keys(overrides)));
    set(next);
    return next.configErrors;
  },
  loadHash(hash, keep = {}) {
    const { state, errors } = linkedSetup(get(), hash, keep);
    set(state);
    return errors;
  },
  resolveSetup() {
    const s = get();
    set(resolved(s, s.preset, s.edits, s.drafts));
  },
  pruneEdits() {
    // A link read before the base models were known spells out their episode settings as edits;
    // once they are known, an edit the setup would give anyway is no edit. Against the values as
    // edited, not the last valid config: an invalid edit (say groups 0, typed while the models
    // loaded) differs from what the setup gives and stays, with its error.
    const s = get();
    const edits = minimalEdits(s, s.values, s.edits, s.preset);
    if (Object.keys(edits).length < Object.keys(s.edits).length) set(resolved(s, s.preset, edits, s.drafts));
  },
});
