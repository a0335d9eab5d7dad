// Building blocks of the scripted experts: plan to a target over the true state, act on
// arrival, open doors on the way, drop a carried object where it blocks nothing, and say why in
// one line ("the yellow key is 2 steps right, turn right").
import { COLOR_BY_IDX, DIR_DX, DIR_DY, EMPTY, OBJ, OBJECT_NAMES, STATE_BY_IDX } from './constants.js';
import type { ExpertStep } from './family.js';
import {
  facing,
  type GoalTest,
  type PlanOptions,
  planFirst,
  reachableNextTo,
  standingOn,
} from './planner.js';
import { ACT, type World } from './world.js';

/** The agent-facing text of each MiniGrid action index. */
export const ACTION_TEXT = [
  'turn left',
  'turn right',
  'go forward',
  'pick up',
  'drop',
  'toggle',
  'done',
] as const;

/** "the yellow key", "the locked yellow door", "the green goal". */
export function objectName(code: number): string {
  const type = OBJECT_NAMES[code & 15];
  const color = COLOR_BY_IDX[(code >> 4) & 7];
  if ((code & 15) === OBJ.door) return `the ${STATE_BY_IDX[code >> 7]} ${color} door`;
  return `the ${color} ${type}`;
}

function steps(n: number, where: string): string {
  return `${n} step${n > 1 ? 's' : ''} ${where}`;
}

/** Where (tx, ty) lies from the agent: "2 steps right and 3 steps forward", "1 step behind". */
export function relativePhrase(world: World, tx: number, ty: number): string {
  const dx = DIR_DX[world.agentDir] as number;
  const dy = DIR_DY[world.agentDir] as number;
  const ox = tx - world.agentX;
  const oy = ty - world.agentY;
  const f = ox * dx + oy * dy;
  const r = -ox * dy + oy * dx;
  const parts: string[] = [];
  if (r !== 0) parts.push(steps(Math.abs(r), r > 0 ? 'right' : 'left'));
  if (f !== 0) parts.push(steps(Math.abs(f), f > 0 ? 'forward' : 'behind'));
  return parts.length === 0 ? 'here' : parts.join(' and ');
}

/** An expert step whose reason names `what` at (tx, ty). */
export function explain(world: World, action: number, what: string, tx: number, ty: number): ExpertStep {
  return { action, reason: `${what} is ${relativePhrase(world, tx, ty)}, ${ACTION_TEXT[action]}` };
}

/**
 * Plans towards a state passing `goal`, then performs `finalAction` there. Doors in the way are
 * toggled open; with no path, the agent turns and waits for the world to change.
 */
export function goAndAct(
  world: World,
  goal: GoalTest,
  what: string,
  tx: number,
  ty: number,
  finalAction: number,
  opts: PlanOptions = {},
): ExpertStep {
  const plan = planFirst(world, goal, opts);
  if (plan === null) {
    return { action: ACT.left, reason: `no way to ${what} is open now, turn left and wait` };
  }
  if (plan.action < 0) return explain(world, finalAction, what, tx, ty);
  if (plan.action === ACT.toggle) {
    const fx = world.frontX();
    const fy = world.frontY();
    const door = objectName(world.grid.get(fx, fy));
    return { action: ACT.toggle, reason: `${door} is 1 step forward on the way to ${what}, toggle` };
  }
  return explain(world, plan.action, what, tx, ty);
}

/** Walks up to the object at (tx, ty) and picks it up. */
export function fetchObject(world: World, tx: number, ty: number, opts: PlanOptions = {}): ExpertStep {
  return goAndAct(world, facing(tx, ty), objectName(world.grid.get(tx, ty)), tx, ty, ACT.pickup, opts);
}

/**
 * Drops the carried object on a free cell that leaves (tx, ty) reachable, walking to the
 * nearest such spot first.
 */
export function dropSafely(world: World, tx: number, ty: number, opts: PlanOptions = {}): ExpertStep {
  const grid = world.grid;
  const spot: GoalTest = (x, y, d) => {
    const fx = x + (DIR_DX[d] as number);
    const fy = y + (DIR_DY[d] as number);
    if (!grid.inBounds(fx, fy) || grid.get(fx, fy) !== EMPTY) return false;
    if (opts.avoid?.(fx, fy)) return false;
    return reachableNextTo(world, x, y, tx, ty, fx, fy, opts);
  };
  const plan = planFirst(world, spot, opts);
  const what = `a free spot to drop ${objectName(world.carrying)}`;
  if (plan === null)
    return { action: ACT.left, reason: `no free spot to drop ${objectName(world.carrying)}, turn left` };
  if (plan.action < 0) {
    return {
      action: ACT.drop,
      reason: `${objectName(world.carrying)} is in the way, the cell ahead is free, drop`,
    };
  }
  return { action: plan.action, reason: `looking for ${what}, ${ACTION_TEXT[plan.action]}` };
}

/** The first cell (row-major) whose code passes `test`, or null. */
export function findCell(world: World, test: (code: number) => boolean): [number, number] | null {
  const { width, height, cells } = world.grid;
  for (let i = 0; i < width * height; i++) {
    if (test(cells[i] as number)) return [i % width, Math.floor(i / width)];
  }
  return null;
}

/** Walks onto (tx, ty), opening doors on the way. */
export function reachCell(
  world: World,
  tx: number,
  ty: number,
  what: string,
  opts: PlanOptions = {},
): ExpertStep {
  return goAndAct(world, standingOn(tx, ty), what, tx, ty, ACT.forward, opts);
}
