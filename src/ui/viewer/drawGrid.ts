// Draws the tile worlds of RAGEN's FrozenLake and Sokoban on a 2D canvas, from their view():
// FrozenLake as ice with holes, the start and the goal flag, the player a figure (red cross in a
// hole, gold on the goal), as gymnasium's renderer shows it; Sokoban as walls, floor, target
// rings, boxes (green once on a target) and the player, as gym_sokoban's tiles do. The tiles are
// computed first (pure, tested against the text grid the agent reads), then painted.
import type { FrozenLakeView } from '../../envs/frozenlake/env.js';
import type { SokobanView } from '../../envs/sokoban/env.js';

export type LakeTile = 'ice' | 'hole' | 'goal' | 'start';
export type SokobanTile = 'wall' | 'floor' | 'target';

/** A drawable tile grid: row-major tiles, things standing on them, and the player. */
export interface TileGrid<T extends string> {
  rows: number;
  cols: number;
  tiles: T[];
  /** Cells holding a box, row-major indices (Sokoban). */
  boxes: Set<number>;
  player: number;
}

const index = (cols: number, p: { row: number; col: number }) => p.row * cols + p.col;

/** FrozenLake's tiles from its view (the start is frozen ice marked as the start). */
export function lakeTiles(view: FrozenLakeView): TileGrid<LakeTile> {
  const n = view.size;
  const tiles: LakeTile[] = new Array(n * n).fill('ice');
  tiles[index(n, view.start)] = 'start';
  for (const h of view.holes) tiles[index(n, h)] = 'hole';
  tiles[index(n, view.goal)] = 'goal';
  return { rows: n, cols: n, tiles, boxes: new Set(), player: index(n, view.player) };
}

/** Sokoban's tiles from its view: walls, floor and targets, with the boxes on top. */
export function sokobanTiles(view: SokobanView): TileGrid<SokobanTile> {
  const tiles: SokobanTile[] = new Array(view.rows * view.cols).fill('floor');
  for (const w of view.walls) tiles[index(view.cols, w)] = 'wall';
  for (const t of view.targets) tiles[index(view.cols, t)] = 'target';
  return {
    rows: view.rows,
    cols: view.cols,
    tiles,
    boxes: new Set(view.boxes.map((b) => index(view.cols, b))),
    player: index(view.cols, view.player),
  };
}

type Ctx = CanvasRenderingContext2D;

function figure(ctx: Ctx, x: number, y: number, s: number, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(x + s / 2, y + s * 0.3, s * 0.14, 0, 2 * Math.PI);
  ctx.fill();
  ctx.beginPath();
  ctx.moveTo(x + s * 0.3, y + s * 0.82);
  ctx.lineTo(x + s / 2, y + s * 0.42);
  ctx.lineTo(x + s * 0.7, y + s * 0.82);
  ctx.closePath();
  ctx.fill();
}

function cross(ctx: Ctx, x: number, y: number, s: number): void {
  ctx.strokeStyle = '#dc2626';
  ctx.lineWidth = Math.max(2, s / 10);
  ctx.beginPath();
  ctx.moveTo(x + s * 0.25, y + s * 0.25);
  ctx.lineTo(x + s * 0.75, y + s * 0.75);
  ctx.moveTo(x + s * 0.75, y + s * 0.25);
  ctx.lineTo(x + s * 0.25, y + s * 0.75);
  ctx.stroke();
}

function lakeTile(ctx: Ctx, tile: LakeTile, x: number, y: number, s: number): void {
  ctx.fillStyle = '#dbeafe';
  ctx.fillRect(x, y, s, s);
  if (tile === 'hole') {
    ctx.fillStyle = '#1e3a5f';
    ctx.beginPath();
    ctx.ellipse(x + s / 2, y + s / 2, s * 0.4, s * 0.32, 0, 0, 2 * Math.PI);
    ctx.fill();
  } else if (tile === 'goal') {
    ctx.fillStyle = '#16a34a';
    ctx.fillRect(x + s * 0.3, y + s * 0.15, s * 0.06, s * 0.7);
    ctx.beginPath();
    ctx.moveTo(x + s * 0.36, y + s * 0.15);
    ctx.lineTo(x + s * 0.75, y + s * 0.28);
    ctx.lineTo(x + s * 0.36, y + s * 0.42);
    ctx.closePath();
    ctx.fill();
  } else if (tile === 'start') {
    ctx.fillStyle = '#93c5fd';
    ctx.fillRect(x + s * 0.12, y + s * 0.12, s * 0.76, s * 0.76);
  }
}

function sokobanTile(ctx: Ctx, tile: SokobanTile, x: number, y: number, s: number): void {
  if (tile === 'wall') {
    ctx.fillStyle = '#7c5a3a';
    ctx.fillRect(x, y, s, s);
    ctx.strokeStyle = '#5b412a';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x, y + s / 2);
    ctx.lineTo(x + s, y + s / 2);
    ctx.moveTo(x + s / 2, y);
    ctx.lineTo(x + s / 2, y + s / 2);
    ctx.moveTo(x + s / 4, y + s / 2);
    ctx.lineTo(x + s / 4, y + s);
    ctx.moveTo(x + (3 * s) / 4, y + s / 2);
    ctx.lineTo(x + (3 * s) / 4, y + s);
    ctx.stroke();
    return;
  }
  ctx.fillStyle = '#f5ecd7';
  ctx.fillRect(x, y, s, s);
  if (tile === 'target') {
    ctx.strokeStyle = '#dc2626';
    ctx.lineWidth = Math.max(2, s / 12);
    ctx.beginPath();
    ctx.arc(x + s / 2, y + s / 2, s * 0.28, 0, 2 * Math.PI);
    ctx.stroke();
  }
}

function box(ctx: Ctx, x: number, y: number, s: number, onTarget: boolean): void {
  ctx.fillStyle = onTarget ? '#22c55e' : '#d97706';
  ctx.fillRect(x + s * 0.14, y + s * 0.14, s * 0.72, s * 0.72);
  ctx.strokeStyle = onTarget ? '#15803d' : '#92400e';
  ctx.lineWidth = Math.max(1, s / 16);
  ctx.strokeRect(x + s * 0.14, y + s * 0.14, s * 0.72, s * 0.72);
  ctx.beginPath();
  ctx.moveTo(x + s * 0.14, y + s * 0.14);
  ctx.lineTo(x + s * 0.86, y + s * 0.86);
  ctx.moveTo(x + s * 0.86, y + s * 0.14);
  ctx.lineTo(x + s * 0.14, y + s * 0.86);
  ctx.stroke();
}

function gridLines(ctx: Ctx, rows: number, cols: number, s: number): void {
  ctx.strokeStyle = 'rgba(0,0,0,0.15)';
  ctx.lineWidth = 1;
  for (let i = 0; i <= cols; i++) {
    ctx.beginPath();
    ctx.moveTo(i * s + 0.5, 0);
    ctx.lineTo(i * s + 0.5, rows * s);
    ctx.stroke();
  }
  for (let j = 0; j <= rows; j++) {
    ctx.beginPath();
    ctx.moveTo(0, j * s + 0.5);
    ctx.lineTo(cols * s, j * s + 0.5);
    ctx.stroke();
  }
}

/** Tile size for a grid drawn into a `width`-pixel square. */
export function tileSize(grid: { rows: number; cols: number }, width: number): number {
  return Math.floor(width / Math.max(grid.rows, grid.cols, 1));
}

/** Draws a FrozenLake state; returns the tile size. */
export function drawFrozenLake(ctx: Ctx, view: FrozenLakeView, width: number): number {
  const g = lakeTiles(view);
  const s = tileSize(g, width);
  g.tiles.forEach((t, i) => {
    lakeTile(ctx, t, (i % g.cols) * s, Math.floor(i / g.cols) * s, s);
  });
  gridLines(ctx, g.rows, g.cols, s);
  const px = (g.player % g.cols) * s;
  const py = Math.floor(g.player / g.cols) * s;
  const under = g.tiles[g.player];
  if (under === 'hole') cross(ctx, px, py, s);
  else figure(ctx, px, py, s, under === 'goal' ? '#ca8a04' : '#ea580c');
  return s;
}

/** Draws a Sokoban state; returns the tile size. */
export function drawSokoban(ctx: Ctx, view: SokobanView, width: number): number {
  const g = sokobanTiles(view);
  const s = tileSize(g, width);
  g.tiles.forEach((t, i) => {
    const x = (i % g.cols) * s;
    const y = Math.floor(i / g.cols) * s;
    sokobanTile(ctx, t, x, y, s);
    if (g.boxes.has(i)) box(ctx, x, y, s, t === 'target');
  });
  gridLines(ctx, g.rows, g.cols, s);
  figure(ctx, (g.player % g.cols) * s, Math.floor(g.player / g.cols) * s, s, '#2563eb');
  return s;
}
