// Draws a MiniGrid state on a 2D canvas the way MiniGrid's renderer does: tiles with grid
// lines, walls, floors, lava, goals, doors (open, closed, locked), keys, balls, boxes, the
// agent as a red triangle pointing its way, and its 7×7 view highlighted.
import type { CellView, MiniGridView } from '../../envs/minigrid/viewjson.js';

/** MiniGrid's colour table (COLORS in minigrid/core/constants.py). */
export const MINIGRID_COLORS: Record<string, string> = {
  red: 'rgb(255,0,0)',
  green: 'rgb(0,255,0)',
  blue: 'rgb(0,0,255)',
  purple: 'rgb(112,39,195)',
  yellow: 'rgb(255,255,0)',
  grey: 'rgb(100,100,100)',
};

type Ctx = CanvasRenderingContext2D;

function drawCell(ctx: Ctx, cell: CellView, x: number, y: number, s: number): void {
  const color = MINIGRID_COLORS[cell.color] ?? '#888';
  const cx = x + s / 2;
  const cy = y + s / 2;
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  switch (cell.type) {
    case 'wall':
      ctx.fillRect(x, y, s, s);
      return;
    case 'floor':
      ctx.globalAlpha = 0.5;
      ctx.fillRect(x + 1, y + 1, s - 2, s - 2);
      ctx.globalAlpha = 1;
      return;
    case 'goal':
      ctx.fillStyle = MINIGRID_COLORS.green as string;
      ctx.fillRect(x + 1, y + 1, s - 2, s - 2);
      return;
    case 'lava':
      ctx.fillStyle = 'rgb(255,128,0)';
      ctx.fillRect(x + 1, y + 1, s - 2, s - 2);
      ctx.strokeStyle = '#000';
      ctx.lineWidth = Math.max(1, s / 24);
      for (const f of [0.3, 0.5, 0.7]) {
        ctx.beginPath();
        ctx.moveTo(x + s * 0.1, y + s * f);
        for (let k = 1; k <= 4; k++)
          ctx.lineTo(x + s * (0.1 + 0.2 * k), y + s * (f + (k % 2 ? -0.05 : 0.05)));
        ctx.stroke();
      }
      return;
    case 'door':
      ctx.lineWidth = Math.max(1, s / 16);
      if (cell.state === 'open') {
        ctx.strokeRect(x + s * 0.88, y + 1, s * 0.1, s - 2);
        return;
      }
      if (cell.state === 'locked') {
        ctx.globalAlpha = 0.45;
        ctx.fillRect(x + 1, y + 1, s - 2, s - 2);
        ctx.globalAlpha = 1;
        ctx.strokeRect(x + 2, y + 2, s - 4, s - 4);
        ctx.fillRect(x + s * 0.52, y + s * 0.48, s * 0.2, s * 0.06);
        return;
      }
      ctx.strokeRect(x + 2, y + 2, s - 4, s - 4);
      ctx.strokeRect(x + s * 0.12, y + s * 0.12, s * 0.76, s * 0.76);
      ctx.beginPath();
      ctx.arc(x + s * 0.75, cy, s * 0.08, 0, 2 * Math.PI);
      ctx.stroke();
      return;
    case 'key':
      ctx.beginPath();
      ctx.arc(x + s * 0.56, y + s * 0.28, s * 0.19, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillRect(x + s * 0.5, y + s * 0.31, s * 0.13, s * 0.57);
      ctx.fillRect(x + s * 0.38, y + s * 0.59, s * 0.12, s * 0.07);
      ctx.fillRect(x + s * 0.38, y + s * 0.81, s * 0.12, s * 0.07);
      ctx.fillStyle = '#000';
      ctx.beginPath();
      ctx.arc(x + s * 0.56, y + s * 0.28, s * 0.064, 0, 2 * Math.PI);
      ctx.fill();
      return;
    case 'ball':
      ctx.beginPath();
      ctx.arc(cx, cy, s * 0.31, 0, 2 * Math.PI);
      ctx.fill();
      return;
    case 'box':
      ctx.lineWidth = Math.max(1, s / 16);
      ctx.strokeRect(x + s * 0.12, y + s * 0.12, s * 0.76, s * 0.76);
      ctx.fillRect(x + s * 0.12, y + s * 0.47, s * 0.76, s * 0.06);
      return;
    default:
      ctx.fillRect(x + s * 0.3, y + s * 0.3, s * 0.4, s * 0.4);
  }
}

function drawAgent(ctx: Ctx, x: number, y: number, s: number, dir: number): void {
  ctx.save();
  ctx.translate(x + s / 2, y + s / 2);
  // MiniGrid directions: 0 right, 1 down, 2 left, 3 up.
  ctx.rotate((dir * Math.PI) / 2);
  ctx.fillStyle = MINIGRID_COLORS.red as string;
  ctx.beginPath();
  ctx.moveTo(s * 0.31, 0);
  ctx.lineTo(-s * 0.31, -s * 0.22);
  ctx.lineTo(-s * 0.31, s * 0.22);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

/** Draws `view` filling a `size`×`size`-pixel square tile grid; returns the tile size. */
export function drawMiniGrid(ctx: Ctx, view: MiniGridView, width: number): number {
  const s = Math.floor(width / Math.max(view.width, view.height));
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, s * view.width, s * view.height);
  for (let y = 0; y < view.height; y++) {
    for (let x = 0; x < view.width; x++) {
      const cell = view.cells[y * view.width + x];
      if (cell) drawCell(ctx, cell, x * s, y * s, s);
    }
  }
  // The agent's 7×7 view, highlighted as MiniGrid does (only cells it can see).
  ctx.fillStyle = 'rgba(255,255,255,0.18)';
  for (let vx = 0; vx < view.fov.positions.length; vx++) {
    const col = view.fov.positions[vx] ?? [];
    for (let vy = 0; vy < col.length; vy++) {
      const [wx, wy] = col[vy] as [number, number];
      const seen = view.fov.cells[vx]?.[vy] !== 'unseen';
      if (seen && wx >= 0 && wy >= 0 && wx < view.width && wy < view.height)
        ctx.fillRect(wx * s, wy * s, s, s);
    }
  }
  ctx.strokeStyle = 'rgb(60,60,60)';
  ctx.lineWidth = 1;
  for (let i = 0; i <= view.width; i++) {
    ctx.beginPath();
    ctx.moveTo(i * s + 0.5, 0);
    ctx.lineTo(i * s + 0.5, s * view.height);
    ctx.stroke();
  }
  for (let j = 0; j <= view.height; j++) {
    ctx.beginPath();
    ctx.moveTo(0, j * s + 0.5);
    ctx.lineTo(s * view.width, j * s + 0.5);
    ctx.stroke();
  }
  drawAgent(ctx, view.agent.x * s, view.agent.y * s, s, view.agent.dir);
  return s;
}
