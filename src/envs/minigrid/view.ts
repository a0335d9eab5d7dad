// The agent's 7×7 egocentric view (Farama MiniGrid 3.x `gen_obs_grid`, `Grid.process_vis`,
// `Grid.encode`): cells off the grid read as walls, the occlusion pass hides what lies behind
// walls and closed doors (skipped when walls are see-through), and the agent's own cell shows
// what it carries. Written into reusable typed arrays: no allocation per step.
import { DIR_DX, DIR_DY, EMPTY, NONE, seeBehind } from './constants.js';
import type { World } from './world.js';

/** Side of the square view (MiniGrid's default `agent_view_size`). */
export const VIEW_SIZE = 7;
/** The agent's view column (centre) and row (bottom). */
export const AGENT_VX = 3;
export const AGENT_VY = 6;

/**
 * One observation's view. Index `vx * 7 + vy` (MiniGrid's `image[vx][vy]`); vy = 0 is the row
 * 6 cells ahead, vx = 0 the leftmost column.
 */
export class ViewBuffer {
  /** Packed code seen at each view cell after masking; NONE (0) where unseen. */
  readonly cells = new Uint16Array(VIEW_SIZE * VIEW_SIZE);
  /** Raw packed code at each view cell before masking (off-grid = wall). */
  readonly raw = new Uint16Array(VIEW_SIZE * VIEW_SIZE);
  /** Visibility mask (1 visible). */
  readonly mask = new Uint8Array(VIEW_SIZE * VIEW_SIZE);
  /** World x, y of each view cell (may be off-grid). */
  readonly worldX = new Int16Array(VIEW_SIZE * VIEW_SIZE);
  readonly worldY = new Int16Array(VIEW_SIZE * VIEW_SIZE);

  /** MiniGrid's `obs["image"]`: 7×7×3 bytes, `image[(vx * 7 + vy) * 3 + k]`. */
  image(): Uint8Array {
    const out = new Uint8Array(VIEW_SIZE * VIEW_SIZE * 3);
    for (let i = 0; i < VIEW_SIZE * VIEW_SIZE; i++) {
      const c = this.cells[i] as number;
      out[i * 3] = c & 15;
      out[i * 3 + 1] = (c >> 4) & 7;
      out[i * 3 + 2] = c >> 7;
    }
    return out;
  }

  /** The image as nested lists `[vx][vy][k]`, as Python's `image.tolist()` prints it. */
  imageLists(): number[][][] {
    const rows: number[][][] = [];
    for (let vx = 0; vx < VIEW_SIZE; vx++) {
      const col: number[][] = [];
      for (let vy = 0; vy < VIEW_SIZE; vy++) {
        const c = this.cells[vx * VIEW_SIZE + vy] as number;
        col.push([c & 15, (c >> 4) & 7, c >> 7]);
      }
      rows.push(col);
    }
    return rows;
  }
}

/** Fills `buf` with the view of `world`'s agent. */
export function computeView(world: World, buf: ViewBuffer): void {
  const grid = world.grid;
  const dir = world.agentDir;
  const dx = DIR_DX[dir] as number;
  const dy = DIR_DY[dir] as number;
  // right_vec = (-dy, dx); view (vx, vy) = agent + (6 - vy) * dir + (vx - 3) * right.
  const rx = -dy;
  const ry = dx;
  const { raw, cells, mask, worldX, worldY } = buf;
  for (let vx = 0; vx < VIEW_SIZE; vx++) {
    for (let vy = 0; vy < VIEW_SIZE; vy++) {
      const f = AGENT_VY - vy;
      const s = vx - AGENT_VX;
      const x = world.agentX + f * dx + s * rx;
      const y = world.agentY + f * dy + s * ry;
      const i = vx * VIEW_SIZE + vy;
      worldX[i] = x;
      worldY[i] = y;
      raw[i] = grid.get(x, y);
    }
  }
  if (world.seeThroughWalls) {
    mask.fill(1);
  } else {
    processVis(raw, mask);
  }
  for (let i = 0; i < VIEW_SIZE * VIEW_SIZE; i++) cells[i] = mask[i] ? (raw[i] as number) : NONE;
  // The agent's own cell shows the carried object, or nothing.
  cells[AGENT_VX * VIEW_SIZE + AGENT_VY] = world.carrying === NONE ? EMPTY : world.carrying;
}

/** `Grid.process_vis` on the view: light spreads from the agent's cell, row by row away from it. */
function processVis(raw: Uint16Array, mask: Uint8Array): void {
  const n = VIEW_SIZE;
  mask.fill(0);
  mask[AGENT_VX * n + AGENT_VY] = 1;
  for (let j = n - 1; j >= 0; j--) {
    for (let i = 0; i < n - 1; i++) {
      if (!mask[i * n + j] || !seeBehind(raw[i * n + j] as number)) continue;
      mask[(i + 1) * n + j] = 1;
      if (j > 0) {
        mask[(i + 1) * n + j - 1] = 1;
        mask[i * n + j - 1] = 1;
      }
    }
    for (let i = n - 1; i > 0; i--) {
      if (!mask[i * n + j] || !seeBehind(raw[i * n + j] as number)) continue;
      mask[(i - 1) * n + j] = 1;
      if (j > 0) {
        mask[(i - 1) * n + j - 1] = 1;
        mask[i * n + j - 1] = 1;
      }
    }
  }
}
