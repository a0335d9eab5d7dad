// What a named preset is, on its own so that the preset tables (presets.ts, and RAGEN's
// environments in ragenPresets.ts, which presets.ts includes) share it without importing each
// other.
import type { Config } from './config.js';
import type { FilterArm } from './rl/filterArms.js';

export interface Preset {
  name: string;
  /** The button's label in the playground. */
  title: string;
  /** One line for menus, and the details behind the note. */
  summary: string;
  /** What the page says first, in two plain sentences (the summary is one click away). */
  note?: string;
  algorithm: Config['algorithm'];
  /**
   * The StarPO-S comparison arm its filter settings make (core/rl/filterArms.ts); set on every
   * preset whose algorithm filters, absent otherwise.
   */
  arm?: FilterArm;
  /** Overrides on top of the defaults and the base model's settings. */
  overrides: Partial<Config>;
  /** Why each override has its value. */
  reasons: Partial<Record<keyof Config, string>>;
  /** How long a run of it takes, measured on a 2-core machine (WASM), said before Start. */
  time?: string;
  /**
   * Seconds an iteration, measured on a 2-core machine (WASM): a learner's run alone in the page,
   * and a frozen control's; Seeds side by side estimates a group's time from them.
   */
  perIteration?: { learner: number; frozen: number };
}
