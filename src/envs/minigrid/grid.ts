// The MiniGrid world grid (Farama MiniGrid 3.x `core/grid.py`) as typed arrays: one packed
// object code per cell (see constants.ts) plus the packed content of each box. An empty cell
// holds EMPTY, MiniGrid's None.
import { EMPTY, NONE, WALL } from './constants.js';

/** A width × height grid of packed object codes, indexed `y * width + x`. */
export class Grid {
  readonly width: number;
  readonly height: number;
  /** Packed object code of each cell; EMPTY where MiniGrid has None. */
  readonly cells: Uint16Array;
  /** Packed code of the object inside the box at each cell; NONE elsewhere. */
  readonly contains: Uint16Array;

  /** @param width, height at least 3, as MiniGrid asserts. */
  constructor(width: number, height: number) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 3 || height < 3) {
      throw new Error(`Grid: width and height must be integers >= 3, got ${width} x ${height}`);
    }
    this.width = width;
    this.height = height;
    this.cells = new Uint16Array(width * height).fill(EMPTY);
    this.contains = new Uint16Array(width * height);
  }

  /** True when (x, y) lies on the grid. */
  inBounds(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  /** The packed code at (x, y); off-grid reads as a wall, as in the agent's view. */
  get(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return WALL;
    return this.cells[y * this.width + x] as number;
  }

  /** The packed content of the box at (x, y), NONE if none. */
  getContains(x: number, y: number): number {
    return this.contains[y * this.width + x] as number;
  }

  /** Puts `code` (with a box's `contents`) at (x, y); EMPTY clears the cell. */
  set(x: number, y: number, code: number, contents = NONE): void {
    const i = y * this.width + x;
    this.cells[i] = code;
    this.contains[i] = contents;
  }

  /** True when (x, y) holds nothing (MiniGrid's `grid.get(x, y) is None`). */
  isEmpty(x: number, y: number): boolean {
    return this.get(x, y) === EMPTY;
  }

  /** `horz_wall`: `length` cells of `code` from (x, y) to the right (default: to the edge). */
  horzWall(x: number, y: number, length = this.width - x, code = WALL): void {
    for (let i = 0; i < length; i++) this.set(x + i, y, code);
  }

  /** `vert_wall`: `length` cells of `code` from (x, y) downward (default: to the edge). */
  vertWall(x: number, y: number, length = this.height - y, code = WALL): void {
    for (let j = 0; j < length; j++) this.set(x, y + j, code);
  }

  /** `wall_rect`: the outline of a w × h rectangle whose top-left corner is (x, y). */
  wallRect(x: number, y: number, w: number, h: number): void {
    this.horzWall(x, y, w);
    this.horzWall(x, y + h - 1, w);
    this.vertWall(x, y, h);
    this.vertWall(x + w - 1, y, h);
  }
}
