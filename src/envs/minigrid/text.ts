// What the agent reads: BabyAI-Text's `gen_graph` descriptions (flowersteam
// Grounding_LLMs_with_online_RL, the code BALROG's fork keeps), string for string and in its
// order: "You carry …", then wall scans forward, left, right, then every other visible object
// (view columns left to right, rows far to near). BALROG shows them without "You see ".
// Strings are cached per (object, view cell), so a step allocates almost nothing.
import { COLOR_BY_IDX, NONE, OBJ, OBJECT_NAMES, STATE_BY_IDX } from './constants.js';
import { AGENT_VX, AGENT_VY, VIEW_SIZE, type ViewBuffer } from './view.js';

const SEE = 'You see ';
const CARRY = 'You carry ';

function steps(n: number, where: string): string {
  return `${n} step${n > 1 ? 's' : ''} ${where}`;
}

// Wall lines: index distance (1..6) per direction.
const WALL_FORWARD = Array.from({ length: VIEW_SIZE }, (_, n) => `a wall ${steps(n, 'forward')}`);
const WALL_LEFT = Array.from({ length: VIEW_SIZE }, (_, n) => `a wall ${steps(n, 'left')}`);
const WALL_RIGHT = Array.from({ length: VIEW_SIZE }, (_, n) => `a wall ${steps(n, 'right')}`);

// Object lines without "You see ", cached by packed code (< 512) and view cell.
const objectCache: (string | undefined)[] = new Array(512 * VIEW_SIZE * VIEW_SIZE);
const carryCache: (string | undefined)[] = new Array(512);

/** "a yellow key " or, for doors, "a locked yellow door " (always "a", as upstream). */
function objectPhrase(code: number): string {
  const type = OBJECT_NAMES[code & 15];
  const color = COLOR_BY_IDX[(code >> 4) & 7];
  if ((code & 15) === OBJ.door) return `a ${STATE_BY_IDX[code >> 7]} ${color} ${type} `;
  return `a ${color} ${type} `;
}

/** The position phrase of view cell (vx, vy) relative to the agent at (3, 6). */
function positionPhrase(vx: number, vy: number): string {
  const dx = vx - AGENT_VX;
  const f = AGENT_VY - vy;
  const side = dx > 0 ? 'right' : 'left';
  if (dx === 0) return steps(f, 'forward');
  if (f === 0) return steps(Math.abs(dx), side);
  return `${steps(Math.abs(dx), side)} and ${steps(f, 'forward')}`;
}

function objectLine(code: number, vx: number, vy: number): string {
  const key = code * VIEW_SIZE * VIEW_SIZE + vx * VIEW_SIZE + vy;
  let s = objectCache[key];
  if (s === undefined) {
    s = objectPhrase(code) + positionPhrase(vx, vy);
    objectCache[key] = s;
  }
  return s;
}

/** "You carry a red key". */
export function carryLine(code: number): string {
  let s = carryCache[code];
  if (s === undefined) {
    s = `${CARRY}a ${COLOR_BY_IDX[(code >> 4) & 7]} ${OBJECT_NAMES[code & 15]}`;
    carryCache[code] = s;
  }
  return s;
}

/**
 * Writes the descriptions of one observation into `out` in BALROG's form ("a wall 3 steps
 * forward"; the carry line keeps "You carry "), and returns how many were written.
 * `out` is reused between calls; entries past the returned count are stale.
 */
export function describeView(view: ViewBuffer, carrying: number, out: string[]): number {
  const cells = view.cells;
  const n = VIEW_SIZE;
  let k = 0;
  if (carrying !== NONE) out[k++] = carryLine(carrying);
  // Wall scans: skip unseen and empty cells; report a wall only if it is the first thing hit.
  for (let j = AGENT_VY - 1; j >= 0; j--) {
    const t = (cells[AGENT_VX * n + j] as number) & 15;
    if (t === OBJ.unseen || t === OBJ.empty) continue;
    if (t === OBJ.wall) out[k++] = WALL_FORWARD[AGENT_VY - j] as string;
    break;
  }
  for (let i = AGENT_VX - 1; i >= 0; i--) {
    const t = (cells[i * n + AGENT_VY] as number) & 15;
    if (t === OBJ.unseen || t === OBJ.empty) continue;
    if (t === OBJ.wall) out[k++] = WALL_LEFT[AGENT_VX - i] as string;
    break;
  }
  for (let i = AGENT_VX + 1; i < n; i++) {
    const t = (cells[i * n + AGENT_VY] as number) & 15;
    if (t === OBJ.unseen || t === OBJ.empty) continue;
    if (t === OBJ.wall) out[k++] = WALL_RIGHT[i - AGENT_VX] as string;
    break;
  }
  for (let vx = 0; vx < n; vx++) {
    for (let vy = 0; vy < n; vy++) {
      const code = cells[vx * n + vy] as number;
      const t = code & 15;
      if (t <= OBJ.wall) continue;
      if (vx === AGENT_VX && vy === AGENT_VY) continue;
      out[k++] = objectLine(code, vx, vy);
    }
  }
  return k;
}

/** BabyAI-Text's own strings: BALROG-form lines with "You see " put back. */
export function babyaiText(lines: readonly string[], count = lines.length): string[] {
  const res: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = lines[i] as string;
    res.push(s.startsWith(CARRY) ? s : SEE + s);
  }
  return res;
}
