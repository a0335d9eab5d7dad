// Family rules and generation invariants: layouts as upstream generates them, and each
// family's own rewards and endings (GoToDoor's done/toggle, Fetch's wrong pick, Memory's two
// ends and pickup-as-toggle, RedBlueDoors' order, Dynamic-Obstacles' collisions and moves).
import { describe, expect, it } from 'vitest';
import { COLOR, GOAL, LAVA, NONE, OBJ, pack, STATE, typeOf, WALL } from './constants.js';
import { minigridEnvs } from './index.js';
import type { MiniGridTextEnv } from './textenv.js';

function make(id: string): MiniGridTextEnv {
  const env = minigridEnvs.find((s) => s.id === id)?.make();
  if (!env) throw new Error(id);
  return env as MiniGridTextEnv;
}

function count(
  env: MiniGridTextEnv,
  code: number,
  test = (x: number, y: number) => x >= 0 && y >= 0,
): number {
  const g = env.world.grid;
  let n = 0;
  for (let y = 0; y < g.height; y++)
    for (let x = 0; x < g.width; x++) if (g.get(x, y) === code && test(x, y)) n++;
  return n;
}

describe('generation', () => {
  it('DoorKey: locked yellow door in the split wall, agent and key left of it, goal in the corner', () => {
    const env = make('minigrid/DoorKey-8x8');
    for (let seed = 0; seed < 40; seed++) {
      env.reset(seed);
      const g = env.world.grid;
      const [dx, dy] = env.view().extra.door as [number, number];
      expect(g.get(dx, dy)).toBe(pack(OBJ.door, COLOR.yellow, STATE.locked));
      expect(dx).toBeGreaterThanOrEqual(2);
      expect(dx).toBeLessThan(6);
      for (let y = 0; y < 8; y++) if (y !== dy) expect(g.get(dx, y)).toBe(WALL);
      expect(env.world.agentX).toBeLessThan(dx);
      expect(count(env, pack(OBJ.key, COLOR.yellow), (x) => x < dx)).toBe(1);
      expect(g.get(6, 6)).toBe(GOAL);
      expect(env.world.maxSteps).toBe(640);
    }
  });

  it('FourRooms: the inner walls have exactly four gaps', () => {
    const env = make('minigrid/FourRooms');
    for (let seed = 0; seed < 20; seed++) {
      env.reset(seed);
      const inner = (x: number, y: number) => (x === 9 || y === 9) && x > 0 && y > 0 && x < 18 && y < 18;
      expect(count(env, WALL, inner)).toBe(33 - 4);
      expect(count(env, GOAL)).toBe(1);
    }
  });

  it('LavaGap and LavaCrossingS9N1: one river with one opening', () => {
    const gap = make('minigrid/LavaGapS7');
    const cross = make('minigrid/LavaCrossingS9N1');
    for (let seed = 0; seed < 20; seed++) {
      gap.reset(seed);
      expect(count(gap, LAVA)).toBe(7 - 3);
      cross.reset(seed);
      expect(count(cross, LAVA)).toBe(9 - 3);
    }
  });

  it('MultiRoom-N4-S5: four rooms joined by three closed doors, one goal', () => {
    const env = make('minigrid/MultiRoom-N4-S5');
    for (let seed = 0; seed < 20; seed++) {
      env.reset(seed);
      const doors = env.view().cells.filter((c) => c?.type === 'door');
      expect(doors).toHaveLength(3);
      for (const d of doors) expect(d?.state).toBe('closed');
      expect(count(env, GOAL)).toBe(1);
      expect(env.world.maxSteps).toBe(80);
    }
  });

  it('KeyCorridor: one locked door, the key of its colour, and the ball named in the mission', () => {
    const env = make('minigrid/KeyCorridorS4R3');
    for (let seed = 0; seed < 20; seed++) {
      env.reset(seed);
      const cells = env.view().cells;
      const locked = cells.filter((c) => c?.type === 'door' && c.state === 'locked');
      expect(locked).toHaveLength(1);
      const keys = cells.filter((c) => c?.type === 'key');
      expect(keys).toEqual([{ type: 'key', color: locked[0]?.color }]);
      const ball = cells.find((c) => c?.type === 'ball');
      expect(env.instruction()).toBe(`pick up the ${ball?.color} ball`);
    }
  });
});

describe('family rules', () => {
  it('GoToDoor: done next to the target pays, done elsewhere or toggle ends with 0', () => {
    const env = make('minigrid/GoToDoor-8x8');
    env.reset(2);
    const [tx, ty] = env.view().extra.target as [number, number];
    const w = env.world;
    // The room's size: its outline starts at (0, 0); then the target's neighbour inside it.
    let rw = 0;
    while (w.grid.get(rw, 0) !== pack(OBJ.empty, 0) && rw < 8) rw++;
    let rh = 0;
    while (w.grid.get(0, rh) !== pack(OBJ.empty, 0) && rh < 8) rh++;
    const inside = [
      [tx + 1, ty],
      [tx - 1, ty],
      [tx, ty + 1],
      [tx, ty - 1],
    ].filter(
      ([x, y]) =>
        (x as number) >= 1 && (y as number) >= 1 && (x as number) <= rw - 2 && (y as number) <= rh - 2,
    );
    expect(inside).toHaveLength(1);
    [w.agentX, w.agentY] = inside[0] as [number, number];
    const r = env.step('done');
    expect(r.done && r.info.success && r.reward > 0).toBe(true);
    env.reset(2);
    [env.world.agentX, env.world.agentY] = [2, 2];
    expect(Math.abs(2 - tx) + Math.abs(2 - ty)).toBeGreaterThan(1);
    expect(env.step('done')).toMatchObject({ done: true, reward: 0 });
    env.reset(2);
    expect(env.step('toggle')).toMatchObject({ done: true, reward: 0 });
  });

  it('Fetch: picking up another object ends the episode with 0; the named one pays', () => {
    const env = make('minigrid/Fetch-8x8-N3');
    env.reset(5);
    const [color, type] = env.instruction().split(' ').slice(-2) as [keyof typeof COLOR, 'key' | 'ball'];
    const target = pack(OBJ[type], COLOR[color]);
    const wrong = pack(type === 'key' ? OBJ.ball : OBJ.key, COLOR[color]);
    const w = env.world;
    [w.agentX, w.agentY, w.agentDir] = [3, 3, 0];
    w.grid.set(3, 3, pack(OBJ.empty, 0));
    w.grid.set(4, 3, wrong);
    expect(env.step('pick up')).toMatchObject({ done: true, reward: 0, info: { success: false } });
    env.reset(5);
    [env.world.agentX, env.world.agentY, env.world.agentDir] = [3, 3, 0];
    env.world.grid.set(3, 3, pack(OBJ.empty, 0));
    env.world.grid.set(4, 3, target);
    expect(env.step('pick up')).toMatchObject({ done: true, info: { success: true } });
  });

  it('Memory: the wrong end gives 0, the right one pays, and pick up acts as toggle', () => {
    const env = make('minigrid/MemoryS9');
    for (const [which, success] of [
      ['failure', false],
      ['success', true],
    ] as const) {
      env.reset(3);
      const [fx, fy] = env.view().extra[which] as [number, number];
      const w = env.world;
      [w.agentX, w.agentY, w.agentDir] = [fx, 4, fy < 4 ? 3 : 1];
      const r = env.step('go forward');
      expect(r.done).toBe(true);
      expect(r.info.success).toBe(success);
      expect(r.reward > 0).toBe(success);
    }
    env.reset(3);
    const w = env.world;
    [w.agentX, w.agentY, w.agentDir] = [1, 4, 3];
    const cue = w.grid.get(1, 3);
    expect([OBJ.key, OBJ.ball]).toContain(typeOf(cue));
    env.step('pick up');
    expect(w.carrying).toBe(NONE);
    expect(w.grid.get(1, 3)).toBe(cue);
  });

  it('RedBlueDoors: opening the blue door first ends with 0', () => {
    const env = make('minigrid/RedBlueDoors-6x6');
    env.reset(1);
    const [bx, by] = env.view().extra.blue as [number, number];
    [env.world.agentX, env.world.agentY, env.world.agentDir] = [bx - 1, by, 0];
    expect(env.step('toggle')).toMatchObject({ done: true, reward: 0, info: { success: false } });
  });

  it('Dynamic-Obstacles: walking into a wall gives −1; balls move at most one cell per step', () => {
    const env = make('minigrid/Dynamic-Obstacles-8x8');
    env.reset(0);
    env.step('turn left');
    expect(env.step('go forward')).toMatchObject({ done: true, reward: -1, info: { success: false } });
    env.reset(9);
    let prev = env.view().extra.obstacles as [number, number][];
    let moved = 0;
    for (let t = 0; t < 20; t++) {
      env.step(t % 2 ? 'turn left' : 'turn right');
      const now = env.view().extra.obstacles as [number, number][];
      now.forEach(([x, y], i) => {
        const [px, py] = prev[i] as [number, number];
        expect(Math.max(Math.abs(x - px), Math.abs(y - py))).toBeLessThanOrEqual(1);
        expect(env.world.grid.get(x, y)).toBe(pack(OBJ.ball, COLOR.blue));
        if (x !== px || y !== py) moved++;
      });
      prev = now;
    }
    expect(moved).toBeGreaterThan(20);
    // Invalid text does not move the balls.
    env.step('wait');
    expect(env.view().extra.obstacles).toEqual(prev);
  });
});
