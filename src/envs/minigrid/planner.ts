// Shortest-path planning over the true MiniGrid state for the scripted experts: breadth-first
// search over (x, y, direction) with unit-cost turns and moves; a closed door (or a locked one whose key the
// agent holds) costs one extra step for the toggle. Objects, walls and lava block the way.
import { canOverlap, colorOf, DIR_DX, DIR_DY, NONE, OBJ, STATE, stateOf, typeOf } from './constants.js';
import { ACT, type World } from './world.js';

/** A predicate on agent states: standing at (x, y) facing `dir`. */
export type GoalTest = (x: number, y: number, dir: number) => boolean;

export interface PlanOptions {
  /** Doors may be opened on the way (default true). */
  openDoors?: boolean;
  /** Extra cells the agent must not enter. */
  avoid?: (x: number, y: number) => boolean;
}

/** The first action of a shortest plan (-1 when the start already satisfies the goal). */
export interface Plan {
  action: number;
  cost: number;
}

/** Extra cost of entering a cell (0 = free move, 1 = needs a toggle first, -1 = blocked). */
export function entryCost(world: World, x: number, y: number, opts: PlanOptions): number {
  const code = world.grid.get(x, y);
  if (opts.avoid?.(x, y)) return -1;
  const t = typeOf(code);
  if (t === OBJ.lava) return -1;
  if (canOverlap(code)) return 0;
  if (t !== OBJ.door || opts.openDoors === false) return -1;
  const s = stateOf(code);
  if (s === STATE.closed) return 1;
  const key = world.carrying;
  if (s === STATE.locked && key !== NONE && typeOf(key) === OBJ.key && colorOf(key) === colorOf(code))
    return 1;
  return -1;
}

/** True when (x, y) facing `dir` looks at (tx, ty). */
export function facing(tx: number, ty: number): GoalTest {
  return (x, y, d) => x + (DIR_DX[d] as number) === tx && y + (DIR_DY[d] as number) === ty;
}

/** True when standing on (tx, ty). */
export function standingOn(tx: number, ty: number): GoalTest {
  return (x, y) => x === tx && y === ty;
}

// Scratch buffers reused between calls (planning allocates nothing once they are big enough).
let distBuf = new Int32Array(0);
let firstBuf = new Int8Array(0);
let queueBuf = new Int32Array(0);

/**
 * The first action of a cheapest path from the agent's state to any state passing `goal`,
 * or null when none is reachable. The action is a MiniGrid index (toggle when a door in front
 * must be opened first). Breadth-first search: a door crossing goes through a virtual
 * "door opened" state, so every edge costs one step.
 */
export function planFirst(world: World, goal: GoalTest, opts: PlanOptions = {}): Plan | null {
  const { width, height } = world.grid;
  const real = width * height * 4;
  const n = real * 2;
  if (distBuf.length < n) {
    distBuf = new Int32Array(n);
    firstBuf = new Int8Array(n);
    queueBuf = new Int32Array(n);
  }
  const dist = distBuf;
  const first = firstBuf;
  const queue = queueBuf;
  dist.fill(-1, 0, n);
  const start = (world.agentY * width + world.agentX) * 4 + world.agentDir;
  dist[start] = 0;
  first[start] = -1;
  queue[0] = start;
  let head = 0;
  let tail = 1;
  const visit = (t: number, from: number, act: number) => {
    if (dist[t] !== -1) return;
    dist[t] = (dist[from] as number) + 1;
    first[t] = from === start ? act : (first[from] as number);
    queue[tail++] = t;
  };
  while (head < tail) {
    const s = queue[head++] as number;
    if (s >= real) {
      // Virtual state: the door in front has just been opened; step through it.
      const r = s - real;
      const dir = r & 3;
      const cell = r >> 2;
      const x = cell % width;
      const y = (cell - x) / width;
      const fx = x + (DIR_DX[dir] as number);
      const fy = y + (DIR_DY[dir] as number);
      visit((fy * width + fx) * 4 + dir, s, ACT.toggle);
      continue;
    }
    const dir = s & 3;
    const cell = s >> 2;
    const x = cell % width;
    const y = (cell - x) / width;
    if (goal(x, y, dir)) return { action: first[s] as number, cost: dist[s] as number };
    visit(cell * 4 + ((dir + 3) & 3), s, ACT.left);
    visit(cell * 4 + ((dir + 1) & 3), s, ACT.right);
    const fx = x + (DIR_DX[dir] as number);
    const fy = y + (DIR_DY[dir] as number);
    if (fx < 0 || fy < 0 || fx >= width || fy >= height) continue;
    const extra = entryCost(world, fx, fy, opts);
    if (extra === 0) visit((fy * width + fx) * 4 + dir, s, ACT.forward);
    else if (extra > 0) visit(real + s, s, ACT.toggle);
  }
  return null;
}

/**
 * Whether a cell next to (tx, ty) can be reached from (sx, sy) moving through cells the
 * planner may enter, with (bx, by) treated as blocked (used to check a drop spot).
 */
export function reachableNextTo(
  world: World,
  sx: number,
  sy: number,
  tx: number,
  ty: number,
  bx: number,
  by: number,
  opts: PlanOptions = {},
): boolean {
  const { width, height } = world.grid;
  const seen = new Uint8Array(width * height);
  const stack = [sy * width + sx];
  seen[sy * width + sx] = 1;
  while (stack.length > 0) {
    const c = stack.pop() as number;
    const x = c % width;
    const y = (c - x) / width;
    if (Math.abs(x - tx) + Math.abs(y - ty) === 1) return true;
    for (let d = 0; d < 4; d++) {
      const nx = x + (DIR_DX[d] as number);
      const ny = y + (DIR_DY[d] as number);
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const k = ny * width + nx;
      if (seen[k] || (nx === bx && ny === by) || entryCost(world, nx, ny, opts) < 0) continue;
      seen[k] = 1;
      stack.push(k);
    }
  }
  return false;
}
