// The MiniGrid state and its transition (Farama MiniGrid 3.x `MiniGridEnv.step`): the agent's
// pose and hand, the step counter, and the order and semantics of left, right, forward,
// pickup, drop, toggle and done. Family rules (Memory's targets, Fetch's pickup ending, ...)
// are applied by the text env around this core step.
import {
  canOverlap,
  canPickup,
  colorOf,
  DIR_DX,
  DIR_DY,
  EMPTY,
  NONE,
  OBJ,
  STATE,
  stateOf,
  typeOf,
  withState,
} from './constants.js';
import { Grid } from './grid.js';

/** MiniGrid's action indices (`core/actions.py`). */
export const ACT = { left: 0, right: 1, forward: 2, pickup: 3, drop: 4, toggle: 5, done: 6 } as const;

/** Action names in index order, as the replay contract spells them. */
export const ACTION_NAMES = ['left', 'right', 'forward', 'pickup', 'drop', 'toggle', 'done'] as const;

export type ActionName = (typeof ACTION_NAMES)[number];

/** What one core step produced. */
export interface StepOutcome {
  reward: number;
  terminated: boolean;
  truncated: boolean;
  /** The agent's pose, hand or the acted-on cell changed. */
  changed: boolean;
}

/** One MiniGrid episode's mutable state. */
export class World {
  grid: Grid;
  agentX = 1;
  agentY = 1;
  /** 0 right, 1 down, 2 left, 3 up. */
  agentDir = 0;
  /** Packed code of the carried object; NONE when the hand is empty. */
  carrying = NONE;
  /** Packed content of a carried box. */
  carryingContains = NONE;
  stepCount = 0;
  maxSteps = 100;
  /** When false, the view is masked by `process_vis` occlusion. */
  seeThroughWalls = false;
  mission = '';

  constructor(width = 3, height = 3) {
    this.grid = new Grid(width, height);
  }

  /** x of the cell in front of the agent. */
  frontX(): number {
    return this.agentX + (DIR_DX[this.agentDir] as number);
  }

  /** y of the cell in front of the agent. */
  frontY(): number {
    return this.agentY + (DIR_DY[this.agentDir] as number);
  }

  /** `_reward`: 1 − 0.9 · stepCount / maxSteps. */
  successReward(): number {
    return 1 - 0.9 * (this.stepCount / this.maxSteps);
  }

  /**
   * `MiniGridEnv.step`: counts the step, applies the action to the cell in front, then
   * truncates at maxSteps. Terminated and truncated can both be true.
   * @param action an index of ACT (0..6).
   */
  step(action: number): StepOutcome {
    this.stepCount++;
    let reward = 0;
    let terminated = false;
    let changed = false;
    const grid = this.grid;
    const fx = this.frontX();
    const fy = this.frontY();
    const fwd = grid.get(fx, fy);
    switch (action) {
      case ACT.left:
        this.agentDir = (this.agentDir + 3) % 4;
        changed = true;
        break;
      case ACT.right:
        this.agentDir = (this.agentDir + 1) % 4;
        changed = true;
        break;
      case ACT.forward: {
        const t = typeOf(fwd);
        if (canOverlap(fwd)) {
          this.agentX = fx;
          this.agentY = fy;
          changed = true;
        }
        if (t === OBJ.goal) {
          terminated = true;
          reward = this.successReward();
        } else if (t === OBJ.lava) {
          terminated = true;
        }
        break;
      }
      case ACT.pickup:
        if (canPickup(fwd) && this.carrying === NONE) {
          this.carrying = fwd;
          this.carryingContains = grid.getContains(fx, fy);
          grid.set(fx, fy, EMPTY);
          changed = true;
        }
        break;
      case ACT.drop:
        if (fwd === EMPTY && this.carrying !== NONE) {
          grid.set(fx, fy, this.carrying, this.carryingContains);
          this.carrying = NONE;
          this.carryingContains = NONE;
          changed = true;
        }
        break;
      case ACT.toggle:
        changed = this.toggle(fx, fy, fwd);
        break;
      case ACT.done:
        break;
      default:
        throw new Error(`World.step: unknown action index ${action}`);
    }
    const truncated = this.stepCount >= this.maxSteps;
    return { reward, terminated, truncated, changed };
  }

  /** `WorldObj.toggle` for the object at (x, y); returns whether anything changed. */
  private toggle(x: number, y: number, code: number): boolean {
    const t = typeOf(code);
    if (t === OBJ.door) {
      const s = stateOf(code);
      if (s === STATE.locked) {
        // Unlocks and opens in one toggle, only with a key of the door's colour (kept).
        const key = this.carrying;
        if (key !== NONE && typeOf(key) === OBJ.key && colorOf(key) === colorOf(code)) {
          this.grid.set(x, y, withState(code, STATE.open));
          return true;
        }
        return false;
      }
      this.grid.set(x, y, withState(code, s === STATE.open ? STATE.closed : STATE.open));
      return true;
    }
    if (t === OBJ.box) {
      // The box is replaced by its content (usually nothing).
      const inside = this.grid.getContains(x, y);
      this.grid.set(x, y, inside === NONE ? EMPTY : inside);
      return true;
    }
    return false;
  }
}
