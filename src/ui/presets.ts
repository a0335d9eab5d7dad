// One-click experiments (TensorFlow Playground's dataset buttons), from the presets the echo-trap
// study maintains in core/presets.ts (each override there carries its reason).
import type { Config } from '../core/config.js';
import { PRESETS as CORE_PRESETS } from '../core/presets.js';

export interface Preset {
  id: string;
  title: string;
  /** One line under the button. */
  description: string;
  /** Two plain sentences the page says first (the description one click away). */
  note?: string;
  /** Measured seconds an iteration, a learner's and a frozen control's (core/presetType.ts). */
  perIteration?: { learner: number; frozen: number };
  /** How long it runs, measured, before Start (absent where not measured). */
  time?: string;
  overrides: Partial<Config>;
}

export const PRESETS: readonly Preset[] = Object.values(CORE_PRESETS).map((p) => ({
  id: p.name,
  title: p.title,
  description: p.summary,
  ...(p.note ? { note: p.note } : {}),
  ...(p.perIteration ? { perIteration: p.perIteration } : {}),
  ...(p.time ? { time: p.time } : {}),
  overrides: { algorithm: p.algorithm, ...p.overrides },
}));
