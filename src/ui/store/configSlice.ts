// The experiment setup: the config as plain data, the text being typed in each field, and
// field-named errors. Actions call the pure functions of core/config and then set().
import type { StateCreator } from 'zustand';
import {
  type Config,
  defaultConfig,
  type FieldError,
  fieldByKey,
  parseFieldText,
  validateConfig,
} from '../../core/config.js';
import { applyAlgorithm } from '../../core/rl/algorithms.js';
import { decodeConfigHash } from '../../core/urlHash.js';
import type { AppState } from './index.js';

export interface ConfigSlice {
  /** The last valid value of every field. */
  config: Config;
  /** What the user has typed, per field, while it is not (yet) valid. */
  drafts: Record<string, string>;
  /** Field-named problems; Start is blocked while any exist. */
  configErrors: FieldError[];
  /** Sets one field from form text; invalid text stays as a draft with its error. */
  setField(key: string, text: string): void;
  /** Replaces the whole config from a URL hash; returns the errors (empty when applied). */
  loadHash(hash: string): FieldError[];
  /** Applies several fields at once (presets); returns the errors (empty when applied). */
  applyOverrides(overrides: Partial<Config>): FieldError[];
}

export const createConfigSlice: StateCreator<AppState, [], [], ConfigSlice> = (set, get) => ({
  config: defaultConfig(),
  drafts: {},
  configErrors: [],
  setField(key, text) {
    const field = fieldByKey.get(key);
    if (!field) return;
    const drafts = { ...get().drafts };
    let candidate: unknown;
    try {
      candidate = { ...get().config, ...draftValues(drafts, key), [key]: parseFieldText(field, text) };
      // Choosing an algorithm sets all of its switches (core/rl/algorithms.ts).
      if (key === 'algorithm') candidate = applyAlgorithm(candidate as Config, text as Config['algorithm']);
      delete drafts[key];
    } catch (err) {
      drafts[key] = text;
      const others = get().configErrors.filter((e) => e.field !== key);
      set({
        drafts,
        configErrors: [...others, { field: key, message: (err as Error).message.replace(`${key}: `, '') }],
      });
      return;
    }
    const r = validateConfig(candidate);
    if (r.ok) {
      set({ config: r.config, drafts: {}, configErrors: [] });
      return;
    }
    // Keep the typed text visible and the last valid config unchanged.
    drafts[key] = text;
    set({ drafts, configErrors: r.errors });
  },
  loadHash(hash) {
    const r = decodeConfigHash(hash);
    if (!r.ok) return r.errors;
    set({ config: r.config, drafts: {}, configErrors: [] });
    return [];
  },
  applyOverrides(overrides) {
    let candidate = { ...get().config, ...overrides };
    if (overrides.algorithm) candidate = { ...applyAlgorithm(candidate, overrides.algorithm), ...overrides };
    const r = validateConfig(candidate);
    if (!r.ok) return r.errors;
    set({ config: r.config, drafts: {}, configErrors: [] });
    return [];
  },
});

/** Values of the other drafted fields that parse, so a fix elsewhere does not lose them. */
function draftValues(drafts: Record<string, string>, except: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, text] of Object.entries(drafts)) {
    if (k === except) continue;
    const f = fieldByKey.get(k);
    if (!f) continue;
    try {
      out[k] = parseFieldText(f, text);
    } catch {
      // Still unparsable: stays a draft with its own error.
    }
  }
  return out;
}
