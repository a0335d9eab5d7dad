// A MiniGrid family as a text environment (envs/types.ts): actions as BALROG's phrases, the
// observation as the mission followed by BabyAI-Text's descriptions one per line without
// "You see " (BALROG's format), and a plain-JSON view for the UI.
//
// Invalid action text leaves the world as it is, still counts a step towards maxSteps (time
// passes, so every episode ends), and the next observation starts with a line saying it was
// not understood.
import { Rng } from '../../core/rng.js';
import { actionText, guardStep, invalidStep, notUnderstoodLine } from '../common.js';
import type { StepResult, TextEnv } from '../types.js';
import { ACTION_TEXT } from './expert.js';
import type { ExpertStep, Family, Task } from './family.js';
import { PlacementError } from './placement.js';
import { babyaiText, describeView } from './text.js';
import { computeView, ViewBuffer } from './view.js';
import { type MiniGridView, worldView } from './viewjson.js';
import { World } from './world.js';

/** An expert suggestion in text form. */
export interface ExpertAction {
  /** The action phrase, e.g. "turn left". */
  action: string;
  /** One line saying why. */
  reason: string;
}

const ACTION_BY_TEXT: ReadonlyMap<string, number> = new Map(ACTION_TEXT.map((t, i) => [t, i]));

/** The MiniGrid action index of `text` (case- and whitespace-insensitive), or -1. */
export function parseAction(text: string): number {
  const exact = ACTION_BY_TEXT.get(text);
  if (exact !== undefined) return exact;
  const norm = text.trim().toLowerCase().split(/\s+/).join(' ');
  return ACTION_BY_TEXT.get(norm) ?? -1;
}

/** One MiniGrid environment instance of family `family` with `params`. */
export class MiniGridTextEnv<P = unknown> implements TextEnv<MiniGridView> {
  readonly id: string;
  readonly family: Family<P>;
  readonly params: P;
  /** The true state; read it, do not mutate it from outside. */
  world = new World();
  private task: Task | null = null;
  private readonly viewBuf = new ViewBuffer();
  private readonly lines: string[] = [];
  private lineCount = 0;
  private allowed: boolean[];
  private missionLine = '';
  private invalidLine: string;
  private lastObservation = '';
  private lastReward = 0;
  private finished = false;
  private started = false;

  constructor(id: string, family: Family<P>, params: P) {
    this.id = id;
    this.family = family;
    this.params = params;
    this.allowed = ACTION_TEXT.map((_, i) => family.actions.includes(i));
    this.invalidLine = notUnderstoodLine(this.validActions());
  }

  /** Generates the episode of `seed` (retrying on a rare failed placement) and observes it. */
  reset(seed: number, instance = 0): string {
    const rng = new Rng(seed);
    // Instance 0 keeps the single-stream upstream-like behaviour; others move obstacles differently.
    const stepRng = instance ? new Rng(seed).fork(`step-${instance}`) : undefined;
    for (let attempt = 0; ; attempt++) {
      const world = new World();
      try {
        this.task = this.family.generate(
          world,
          attempt === 0 ? rng : rng.fork(`retry-${attempt}`),
          this.params,
          stepRng,
        );
        this.world = world;
        break;
      } catch (err) {
        if (!(err instanceof PlacementError) || attempt >= 50) throw err;
      }
    }
    this.finished = false;
    this.started = true;
    this.lastReward = 0;
    this.missionLine = `Mission: ${this.world.mission}`;
    this.lastObservation = this.observe();
    return this.lastObservation;
  }

  /** Applies one action phrase; after the episode has ended it returns done with no change. */
  step(action: string): StepResult {
    const ended = guardStep(this.id, this.started, this.finished, this.lastObservation);
    if (ended) return ended;
    const world = this.world;
    const a = parseAction(actionText(action));
    if (a < 0 || !this.allowed[a]) {
      world.stepCount++;
      this.finished = world.stepCount >= world.maxSteps;
      this.lastReward = 0;
      this.lastObservation = `${this.invalidLine}\n${this.observe()}`;
      return invalidStep(this.lastObservation, this.finished);
    }
    const task = this.task as Task;
    const coreAction = task.beforeStep ? task.beforeStep(a) : a;
    const out = world.step(coreAction);
    task.afterStep?.(a, out);
    this.finished = out.terminated || out.truncated;
    this.lastReward = out.reward;
    this.lastObservation = this.observe();
    return {
      observation: this.lastObservation,
      reward: out.reward,
      done: this.finished,
      info: {
        success: out.terminated && out.reward > 0,
        actionIsValid: true,
        actionIsEffective: out.changed || out.terminated,
      },
    };
  }

  /** The episode's mission string. */
  instruction(): string {
    return this.world.mission;
  }

  /** The family's action phrases. */
  validActions(): string[] {
    return this.family.actions.map((i) => ACTION_TEXT[i] as string);
  }

  /** Whether the episode has ended. */
  isDone(): boolean {
    return this.finished;
  }

  /** BabyAI-Text's descriptions of the current observation ("You see …", "You carry …"). */
  descriptions(): string[] {
    return babyaiText(this.lines, this.lineCount);
  }

  /** The scripted expert's next action and reason, over the true state. */
  expert(): ExpertAction {
    if (!this.task) throw new Error(`${this.id}: call reset(seed) before expert()`);
    const e: ExpertStep = this.task.expert();
    return { action: ACTION_TEXT[e.action] as string, reason: e.reason };
  }

  /** Plain JSON for viewers: the whole grid, the agent, and its 7×7 view. */
  view(): MiniGridView {
    computeView(this.world, this.viewBuf);
    return worldView(this.id, this.world, this.viewBuf, {
      done: this.finished,
      lastReward: this.lastReward,
      extra: this.task?.extra?.() ?? {},
    });
  }

  private observe(): string {
    const world = this.world;
    computeView(world, this.viewBuf);
    const n = describeView(this.viewBuf, world.carrying, this.lines);
    this.lineCount = n;
    let s = this.missionLine;
    for (let i = 0; i < n; i++) s += `\n${this.lines[i]}`;
    return s;
  }
}
