// The `minigrid-replay` contract (docs/cli-contracts.md): a hand-built grid, a list of
// MiniGrid action names, and one frame per observation with MiniGrid's encoded image and
// BabyAI-Text's descriptions. Pure: the CLI command only feeds it JSON lines.
import {
  COLOR,
  COLOR_BY_IDX,
  type ColorName,
  canOverlap,
  colorName,
  DEFAULT_COLOR,
  NONE,
  OBJ,
  pack,
  STATE,
  STATE_BY_IDX,
  typeName,
} from './constants.js';
import { babyaiText, describeView } from './text.js';
import { computeView, ViewBuffer } from './view.js';
import { ACTION_NAMES, type ActionName, World } from './world.js';

/** One output frame. */
export interface ReplayFrame {
  action: ActionName | null;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  agent: { x: number; y: number; dir: number };
  carrying: ObjectJson | null;
  image: number[][][];
  text: string[];
}

/** An object as the contract writes it. */
export interface ObjectJson {
  type: string;
  color: string;
  state?: string;
  contains?: ObjectJson;
}

const CELL_TYPES = ['wall', 'floor', 'door', 'key', 'ball', 'box', 'goal', 'lava'];
const CARRY_TYPES = ['key', 'ball', 'box'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function int(v: unknown, field: string, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new Error(`${field}: expected an integer in [${lo}, ${hi}], got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Parses an object description into a packed code and a packed box content. */
function parseObject(v: unknown, field: string, types: readonly string[]): [number, number] {
  if (!isRecord(v)) throw new Error(`${field}: expected an object`);
  const type = v.type;
  if (typeof type !== 'string' || !types.includes(type)) {
    throw new Error(`${field}.type: expected one of ${types.join(', ')}, got ${JSON.stringify(type)}`);
  }
  const colorName = v.color === undefined ? DEFAULT_COLOR[type] : v.color;
  if (typeof colorName !== 'string' || !(colorName in COLOR)) {
    throw new Error(
      `${field}.color: expected one of ${COLOR_BY_IDX.join(', ')}, got ${JSON.stringify(v.color)}`,
    );
  }
  const color = COLOR[colorName as ColorName];
  let state = 0;
  if (v.state !== undefined) {
    if (type !== 'door') throw new Error(`${field}.state: only doors have a state`);
    if (typeof v.state !== 'string' || !(v.state in STATE)) {
      throw new Error(`${field}.state: expected open, closed or locked, got ${JSON.stringify(v.state)}`);
    }
    state = STATE[v.state as keyof typeof STATE];
  } else if (type === 'door') {
    state = STATE.closed;
  }
  let contents = NONE;
  if (v.contains !== undefined && v.contains !== null) {
    if (type !== 'box') throw new Error(`${field}.contains: only boxes contain objects`);
    if (isRecord(v.contains) && v.contains.contains !== undefined && v.contains.contains !== null) {
      throw new Error(`${field}.contains.contains: nested boxes are not supported`);
    }
    [contents] = parseObject(v.contains, `${field}.contains`, CELL_TYPES);
  }
  return [pack(OBJ[type as keyof typeof OBJ], color, state), contents];
}

/** The contract's JSON form of a packed object. */
export function objectJson(code: number, contents = NONE): ObjectJson {
  const out: ObjectJson = { type: typeName(code), color: colorName(code) };
  if ((code & 15) === OBJ.door) out.state = STATE_BY_IDX[code >> 7] as string;
  if (contents !== NONE) out.contains = objectJson(contents);
  return out;
}

/** A validated scenario: the world at its start and the actions to apply. */
export interface Scenario {
  id: string | number | null;
  world: World;
  actions: number[];
}

/** Validates one input line; errors name the bad field. */
export function parseScenario(v: unknown): Scenario {
  if (!isRecord(v)) throw new Error('scenario: expected a JSON object');
  const id = v.id;
  if (typeof id !== 'string' && typeof id !== 'number') throw new Error('id: expected a string or number');
  const width = int(v.width, 'width', 3, 256);
  const height = int(v.height, 'height', 3, 256);
  const world = new World(width, height);
  world.maxSteps = v.maxSteps === undefined ? 100 : int(v.maxSteps, 'maxSteps', 1, 1e9);
  if (v.seeThroughWalls !== undefined && typeof v.seeThroughWalls !== 'boolean') {
    throw new Error('seeThroughWalls: expected true or false');
  }
  world.seeThroughWalls = v.seeThroughWalls === true;
  if (!Array.isArray(v.cells)) throw new Error('cells: expected an array');
  const seen = new Set<number>();
  v.cells.forEach((c: unknown, i: number) => {
    const field = `cells[${i}]`;
    if (!isRecord(c)) throw new Error(`${field}: expected an object`);
    const x = int(c.x, `${field}.x`, 0, width - 1);
    const y = int(c.y, `${field}.y`, 0, height - 1);
    if (seen.has(y * width + x)) throw new Error(`${field}: cell (${x}, ${y}) is listed twice`);
    seen.add(y * width + x);
    const [code, contents] = parseObject(c, field, CELL_TYPES);
    world.grid.set(x, y, code, contents);
  });
  if (!isRecord(v.agent)) throw new Error('agent: expected an object');
  world.agentX = int(v.agent.x, 'agent.x', 0, width - 1);
  world.agentY = int(v.agent.y, 'agent.y', 0, height - 1);
  world.agentDir = int(v.agent.dir, 'agent.dir', 0, 3);
  if (!canOverlap(world.grid.get(world.agentX, world.agentY))) {
    throw new Error(
      `agent: cell (${world.agentX}, ${world.agentY}) holds an object the agent cannot stand on`,
    );
  }
  if (v.agent.carrying !== undefined && v.agent.carrying !== null) {
    [world.carrying, world.carryingContains] = parseObject(v.agent.carrying, 'agent.carrying', CARRY_TYPES);
  }
  if (!Array.isArray(v.actions)) throw new Error('actions: expected an array of action names');
  const actions = v.actions.map((a: unknown, i: number) => {
    const k = typeof a === 'string' ? ACTION_NAMES.indexOf(a as ActionName) : -1;
    if (k < 0)
      throw new Error(`actions[${i}]: expected one of ${ACTION_NAMES.join(', ')}, got ${JSON.stringify(a)}`);
    return k;
  });
  return { id, world, actions };
}

function frame(world: World, view: ViewBuffer, lines: string[], action: number | null): ReplayFrame {
  computeView(world, view);
  const n = describeView(view, world.carrying, lines);
  return {
    action: action === null ? null : (ACTION_NAMES[action] as ActionName),
    reward: 0,
    terminated: false,
    truncated: false,
    agent: { x: world.agentX, y: world.agentY, dir: world.agentDir },
    carrying: world.carrying === NONE ? null : objectJson(world.carrying, world.carryingContains),
    image: view.imageLists(),
    text: babyaiText(lines, n),
  };
}

/** Runs a scenario: frame 0 before any action, then one per action until the episode ends. */
export function replayScenario(s: Scenario): { id: string | number | null; frames: ReplayFrame[] } {
  const view = new ViewBuffer();
  const lines: string[] = [];
  const frames = [frame(s.world, view, lines, null)];
  for (const a of s.actions) {
    const out = s.world.step(a);
    const f = frame(s.world, view, lines, a);
    f.reward = out.reward;
    f.terminated = out.terminated;
    f.truncated = out.truncated;
    frames.push(f);
    if (out.terminated || out.truncated) break;
  }
  return { id: s.id, frames };
}

/** Parses and replays one contract line. */
export function replayLine(v: unknown): { id: string | number | null; frames: ReplayFrame[] } {
  return replayScenario(parseScenario(v));
}
