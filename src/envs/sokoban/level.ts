// A Sokoban level as plain arrays, the push rule and the text grid. Cell codes and the push rule
// follow gym_sokoban (`room_fixed`: 0 wall, 1 floor, 2 target; a push moves the box when the cell
// beyond it is free floor or target, otherwise nothing moves); symbols follow RAGEN's
// SokobanEnvConfig.grid_lookup (#, _, O, √, X, P, S) and its DifferentGridVocab variant.

/** Fixed cell codes, gym_sokoban's `room_fixed`. */
export const WALL = 0;
export const FLOOR = 1;
export const TARGET = 2;

/** Directions in RAGEN's action order (1 Up, 2 Down, 3 Left, 4 Right), as [dRow, dCol]. */
export const DIRECTIONS = ['Up', 'Down', 'Left', 'Right'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const DIR_DR: readonly number[] = [-1, 1, 0, 0];
export const DIR_DC: readonly number[] = [0, 0, -1, 1];

/** One Sokoban state. Cells are row-major indices `row * cols + col`. */
export interface Level {
  rows: number;
  cols: number;
  /** WALL, FLOOR or TARGET per cell. */
  fixed: Uint8Array;
  /** Cells holding a box (order carries no meaning for play). */
  boxes: number[];
  player: number;
}

/** How each kind of cell is written in the text grid. */
export interface SymbolTable {
  wall: string;
  floor: string;
  target: string;
  boxOnTarget: string;
  box: string;
  player: string;
  playerOnTarget: string;
}

/** The paper's symbols (RAGEN's default grid_lookup). */
export const PAPER_SYMBOLS: SymbolTable = {
  wall: '#',
  floor: '_',
  target: 'O',
  boxOnTarget: '√',
  box: 'X',
  player: 'P',
  playerOnTarget: 'S',
};

/** RAGEN's SokobanDifferentGridVocab symbols. */
export const NEW_VOCAB_SYMBOLS: SymbolTable = {
  wall: 'W',
  floor: '.',
  target: 'G',
  boxOnTarget: 'C',
  box: 'B',
  player: 'A',
  playerOnTarget: '@',
};

/** The one-line legend, in RAGEN's grid_vocab words and order. */
export function legend(s: SymbolTable): string {
  return [
    `${s.wall}: wall`,
    `${s.floor}: empty`,
    `${s.target}: target`,
    `${s.boxOnTarget}: box on target`,
    `${s.box}: box`,
    `${s.player}: player`,
    `${s.playerOnTarget}: player on target`,
  ].join(', ');
}

/** A deep copy. */
export function cloneLevel(level: Level): Level {
  return { ...level, fixed: level.fixed.slice(), boxes: level.boxes.slice() };
}

/** Rows of symbols, top row first. */
export function symbolRows(level: Level, s: SymbolTable): string[][] {
  const boxes = new Set(level.boxes);
  const rows: string[][] = [];
  for (let r = 0; r < level.rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < level.cols; c++) {
      const i = r * level.cols + c;
      const f = level.fixed[i];
      const onTarget = f === TARGET;
      if (i === level.player) row.push(onTarget ? s.playerOnTarget : s.player);
      else if (boxes.has(i)) row.push(onTarget ? s.boxOnTarget : s.box);
      else row.push(f === WALL ? s.wall : onTarget ? s.target : s.floor);
    }
    rows.push(row);
  }
  return rows;
}

/** The text grid: one line per row, cells separated by one space (RAGEN pads each symbol). */
export function renderGrid(level: Level, s: SymbolTable): string {
  return symbolRows(level, s)
    .map((row) => row.join(' '))
    .join('\n');
}

/** Boxes standing on targets. */
export function boxesOnTarget(level: Level): number {
  let n = 0;
  for (const b of level.boxes) if (level.fixed[b] === TARGET) n++;
  return n;
}

/** The neighbour of `cell` in direction `dir`, or -1 off the grid. */
export function neighbour(level: Level, cell: number, dir: number): number {
  const r = Math.floor(cell / level.cols) + (DIR_DR[dir] as number);
  const c = (cell % level.cols) + (DIR_DC[dir] as number);
  if (r < 0 || c < 0 || r >= level.rows || c >= level.cols) return -1;
  return r * level.cols + c;
}

/** What one move did. */
export interface MoveResult {
  moved: boolean;
  pushed: boolean;
}

/**
 * gym_sokoban's step for a push-or-move action, in place: walk onto free floor or a target;
 * push a box when the cell beyond it is free; otherwise stay.
 */
export function applyMove(level: Level, dir: number): MoveResult {
  const next = neighbour(level, level.player, dir);
  if (next < 0 || level.fixed[next] === WALL) return { moved: false, pushed: false };
  const boxAt = level.boxes.indexOf(next);
  if (boxAt < 0) {
    level.player = next;
    return { moved: true, pushed: false };
  }
  const beyond = neighbour(level, next, dir);
  if (beyond < 0 || level.fixed[beyond] === WALL || level.boxes.includes(beyond)) {
    return { moved: false, pushed: false };
  }
  level.boxes[boxAt] = beyond;
  level.player = next;
  return { moved: true, pushed: true };
}

/**
 * Parses a grid written with `s` (cells separated by spaces or not) into a level; for tests and
 * hand-made levels. Throws on unknown symbols or a player count other than one.
 */
export function parseLevel(text: string, s: SymbolTable = PAPER_SYMBOLS): Level {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => [...l.replace(/\s+/g, '')]);
  const rows = lines.length;
  const cols = lines[0]?.length ?? 0;
  const fixed = new Uint8Array(rows * cols);
  const boxes: number[] = [];
  let player = -1;
  lines.forEach((line, r) => {
    if (line.length !== cols) throw new Error(`parseLevel: row ${r} has ${line.length} cells, not ${cols}`);
    line.forEach((ch, c) => {
      const i = r * cols + c;
      const onTarget = ch === s.target || ch === s.boxOnTarget || ch === s.playerOnTarget;
      fixed[i] = ch === s.wall ? WALL : onTarget ? TARGET : FLOOR;
      if (ch === s.box || ch === s.boxOnTarget) boxes.push(i);
      if (ch === s.player || ch === s.playerOnTarget) {
        if (player >= 0) throw new Error('parseLevel: more than one player');
        player = i;
      }
      if (![s.wall, s.floor, s.target, s.box, s.boxOnTarget, s.player, s.playerOnTarget].includes(ch)) {
        throw new Error(`parseLevel: unknown symbol "${ch}"`);
      }
    });
  });
  if (player < 0) throw new Error('parseLevel: no player');
  return { rows, cols, fixed, boxes, player };
}
