// MiniGrid's encoding tables and per-object rules (Farama MiniGrid 3.x `core/constants.py`,
// `core/world_object.py`). Objects are packed into one small integer so that the grid can be a
// typed array: bits 0-3 object index, bits 4-6 colour index, bits 7-8 state index.

/** OBJECT_TO_IDX: the first number of a cell's encoding. */
export const OBJ = {
  unseen: 0,
  empty: 1,
  wall: 2,
  floor: 3,
  door: 4,
  key: 5,
  ball: 6,
  box: 7,
  goal: 8,
  lava: 9,
  agent: 10,
} as const;

/** IDX_TO_OBJECT. */
export const OBJECT_NAMES = [
  'unseen',
  'empty',
  'wall',
  'floor',
  'door',
  'key',
  'ball',
  'box',
  'goal',
  'lava',
  'agent',
] as const;

export type ObjectName = (typeof OBJECT_NAMES)[number];

/** COLOR_TO_IDX: the second number of a cell's encoding. */
export const COLOR = { red: 0, green: 1, blue: 2, purple: 3, yellow: 4, grey: 5 } as const;

/** IDX_TO_COLOR. */
export const COLOR_BY_IDX = ['red', 'green', 'blue', 'purple', 'yellow', 'grey'] as const;

export type ColorName = (typeof COLOR_BY_IDX)[number];

/** COLOR_NAMES = sorted(COLORS): random colour choices index this list, as upstream does. */
export const COLOR_NAMES: readonly ColorName[] = ['blue', 'green', 'grey', 'purple', 'red', 'yellow'];

/** STATE_TO_IDX: the third number of a door's encoding (0 for every other object). */
export const STATE = { open: 0, closed: 1, locked: 2 } as const;

/** IDX_TO_STATE. */
export const STATE_BY_IDX = ['open', 'closed', 'locked'] as const;

export type StateName = (typeof STATE_BY_IDX)[number];

/** DIR_TO_VEC: 0 right (+x), 1 down (+y), 2 left, 3 up. */
export const DIR_DX = [1, 0, -1, 0] as const;
export const DIR_DY = [0, 1, 0, -1] as const;

/** MiniGrid's default colour of each object type (WorldObj constructors). */
export const DEFAULT_COLOR: Readonly<Record<string, ColorName>> = {
  wall: 'grey',
  floor: 'blue',
  goal: 'green',
  lava: 'red',
  key: 'blue',
  ball: 'blue',
  box: 'blue',
  door: 'blue',
};

/** The "nothing" code: used for an empty hand (never stored in the grid). */
export const NONE = 0;

/** Packs (object, colour, state) indices into one integer. */
export function pack(type: number, color: number, state = 0): number {
  return type | (color << 4) | (state << 7);
}

/** Object index of a packed code. */
export function typeOf(code: number): number {
  return code & 15;
}

/** Colour index of a packed code. */
export function colorOf(code: number): number {
  return (code >> 4) & 7;
}

/** State index of a packed code. */
export function stateOf(code: number): number {
  return code >> 7;
}

/** A packed code with a new state. */
export function withState(code: number, state: number): number {
  return (code & 127) | (state << 7);
}

/** The packed code of an empty cell, encoded (1, 0, 0) as MiniGrid encodes None. */
export const EMPTY = pack(OBJ.empty, 0);
/** A grey wall, also what off-grid cells become in the agent's view. */
export const WALL = pack(OBJ.wall, COLOR.grey);
/** The green goal square. */
export const GOAL = pack(OBJ.goal, COLOR.green);
/** A red lava cell. */
export const LAVA = pack(OBJ.lava, COLOR.red);

/** `can_overlap`: the agent may stand here (empty, floor, goal, lava, open door). */
export function canOverlap(code: number): boolean {
  const t = code & 15;
  return (
    t === OBJ.empty ||
    t === OBJ.floor ||
    t === OBJ.goal ||
    t === OBJ.lava ||
    (t === OBJ.door && code >> 7 === 0)
  );
}

/** `can_pickup`: keys, balls and boxes. */
export function canPickup(code: number): boolean {
  const t = code & 15;
  return t === OBJ.key || t === OBJ.ball || t === OBJ.box;
}

/** `see_behind`: false for walls and for doors that are not open. */
export function seeBehind(code: number): boolean {
  const t = code & 15;
  if (t === OBJ.wall) return false;
  if (t === OBJ.door) return code >> 7 === 0;
  return true;
}

/** Colour name of a packed code. */
export function colorName(code: number): ColorName {
  return COLOR_BY_IDX[colorOf(code)] as ColorName;
}

/** Object type name of a packed code. */
export function typeName(code: number): ObjectName {
  return OBJECT_NAMES[typeOf(code)] as ObjectName;
}

/** A blue ball, Dynamic-Obstacles' moving obstacle. */
export const BLUE_BALL = pack(OBJ.ball, COLOR.blue);
