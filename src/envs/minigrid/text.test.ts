// BabyAI-Text descriptions and the 7×7 view on hand-built grids; the Empty-5x5 case is the
// output of the real Python code (reference notes, "[ran]").
import { describe, expect, it } from 'vitest';
import { COLOR, EMPTY, GOAL, NONE, OBJ, pack, STATE, WALL } from './constants.js';
import { minigridEnvs } from './index.js';
import { babyaiText, describeView } from './text.js';
import { computeView, ViewBuffer } from './view.js';
import { World } from './world.js';

function texts(w: World): string[] {
  const view = new ViewBuffer();
  const lines: string[] = [];
  computeView(w, view);
  return babyaiText(lines, describeView(view, w.carrying, lines));
}

/** An open 12×12 walled room, agent at (5, 9) facing up. */
function openRoom(): World {
  const w = new World(12, 12);
  w.grid.wallRect(0, 0, 12, 12);
  w.agentX = 5;
  w.agentY = 9;
  w.agentDir = 3;
  return w;
}

describe('BabyAI-Text descriptions', () => {
  it('match the upstream Empty-5x5 start', () => {
    const env = minigridEnvs.find((s) => s.id === 'minigrid/Empty-5x5')?.make();
    if (!env) throw new Error('missing');
    const obs = env.reset(0);
    expect(obs).toBe(
      [
        'Mission: get to the green goal square',
        'a wall 3 steps forward',
        'a wall 1 step left',
        'a wall 3 steps right',
        'a green goal 2 steps right and 2 steps forward',
      ].join('\n'),
    );
  });

  it('name objects with colour and place, doors with state and always "a"', () => {
    const w = openRoom();
    w.grid.set(6, 4, pack(OBJ.key, COLOR.yellow));
    w.grid.set(7, 4, pack(OBJ.door, COLOR.yellow, STATE.locked));
    w.grid.set(3, 9, pack(OBJ.door, COLOR.red, STATE.open));
    w.grid.set(5, 6, pack(OBJ.ball, COLOR.purple));
    // The side walls are 5 and 6 cells away, outside the 7×7 view.
    expect(texts(w)).toEqual([
      'You see a open red door 2 steps left',
      'You see a purple ball 3 steps forward',
      'You see a yellow key 1 step right and 5 steps forward',
      'You see a locked yellow door 2 steps right and 5 steps forward',
    ]);
  });

  it('reports a wall only when nothing stands in between, and the carried object first', () => {
    const w = openRoom();
    w.agentX = 2;
    w.agentY = 4;
    w.grid.set(2, 2, pack(OBJ.box, COLOR.green));
    w.carrying = pack(OBJ.key, COLOR.red);
    expect(texts(w)).toEqual([
      'You carry a red key',
      'You see a wall 2 steps left',
      'You see a green box 2 steps forward',
    ]);
    w.grid.set(2, 2, EMPTY);
    expect(texts(w)).toEqual([
      'You carry a red key',
      'You see a wall 4 steps forward',
      'You see a wall 2 steps left',
    ]);
  });

  it('hides what lies behind walls unless walls are see-through', () => {
    const w = openRoom();
    w.grid.horzWall(1, 7, 10);
    w.grid.set(5, 5, GOAL);
    expect(texts(w)).toEqual(['You see a wall 2 steps forward']);
    w.seeThroughWalls = true;
    expect(texts(w)).toContain('You see a green goal 4 steps forward');
  });

  it('treats cells off the grid as walls', () => {
    const w = new World(5, 5);
    w.agentX = 4;
    w.agentY = 2;
    w.agentDir = 0;
    const view = new ViewBuffer();
    computeView(w, view);
    // The cell in front (view [3][5]) is off the grid: a grey wall.
    expect(Array.from(view.image().slice((3 * 7 + 5) * 3, (3 * 7 + 5) * 3 + 3))).toEqual([2, 5, 0]);
    expect(texts(w)[0]).toBe('You see a wall 1 step forward');
  });

  it("shows the carried object in the agent's own view cell and encodes unseen cells as zeros", () => {
    const w = openRoom();
    w.grid.horzWall(1, 8, 10);
    w.carrying = pack(OBJ.ball, COLOR.green);
    const view = new ViewBuffer();
    computeView(w, view);
    const img = view.imageLists();
    expect(img[3]?.[6]).toEqual([OBJ.ball, COLOR.green, 0]);
    expect(img[3]?.[5]).toEqual([OBJ.wall, COLOR.grey, 0]);
    expect(img[3]?.[0]).toEqual([0, 0, 0]);
    w.carrying = NONE;
    computeView(w, view);
    expect(view.imageLists()[3]?.[6]).toEqual([OBJ.empty, 0, 0]);
    expect(EMPTY).toBe(pack(OBJ.empty, 0));
    expect(WALL).toBe(pack(OBJ.wall, COLOR.grey));
  });
});
