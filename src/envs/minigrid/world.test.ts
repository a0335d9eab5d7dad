// Hand-built grids for each action's corner cases (MiniGrid 3.x `MiniGridEnv.step` and the
// objects' toggle rules), with expected outcomes worked out by hand.
import { describe, expect, it } from 'vitest';
import { COLOR, EMPTY, GOAL, LAVA, NONE, OBJ, pack, STATE, WALL } from './constants.js';
import { ACT, World } from './world.js';

const YELLOW_KEY = pack(OBJ.key, COLOR.yellow);
const RED_KEY = pack(OBJ.key, COLOR.red);
const BLUE_BALL = pack(OBJ.ball, COLOR.blue);
const door = (color: number, state: number) => pack(OBJ.door, color, state);

/** A 5×5 walled room with the agent at (2, 2) facing right; the front cell is (3, 2). */
function room(front: number = EMPTY, carrying: number = NONE): World {
  const w = new World(5, 5);
  w.grid.wallRect(0, 0, 5, 5);
  w.agentX = 2;
  w.agentY = 2;
  w.agentDir = 0;
  w.grid.set(3, 2, front);
  w.carrying = carrying;
  return w;
}

describe('World.step', () => {
  it('turns left and right modulo 4 and counts every step', () => {
    const w = room();
    expect(w.step(ACT.left).changed).toBe(true);
    expect(w.agentDir).toBe(3);
    w.step(ACT.right);
    w.step(ACT.right);
    expect(w.agentDir).toBe(1);
    expect(w.stepCount).toBe(3);
  });

  it('does not open a locked door with a key of another colour', () => {
    const w = room(door(COLOR.yellow, STATE.locked), RED_KEY);
    const out = w.step(ACT.toggle);
    expect(out.changed).toBe(false);
    expect(w.grid.get(3, 2)).toBe(door(COLOR.yellow, STATE.locked));
    expect(w.step(ACT.forward).changed).toBe(false);
    expect(w.agentX).toBe(2);
  });

  it('unlocks and opens a locked door in one toggle with the matching key, keeping the key', () => {
    const w = room(door(COLOR.yellow, STATE.locked), YELLOW_KEY);
    expect(w.step(ACT.toggle).changed).toBe(true);
    expect(w.grid.get(3, 2)).toBe(door(COLOR.yellow, STATE.open));
    expect(w.carrying).toBe(YELLOW_KEY);
    w.step(ACT.forward);
    expect([w.agentX, w.agentY]).toEqual([3, 2]);
    // A second toggle from inside the doorway acts on the cell ahead (a wall): nothing happens.
    expect(w.step(ACT.toggle).changed).toBe(false);
  });

  it('flips an unlocked door between closed and open', () => {
    const w = room(door(COLOR.green, STATE.closed));
    w.step(ACT.toggle);
    expect(w.grid.get(3, 2)).toBe(door(COLOR.green, STATE.open));
    w.step(ACT.toggle);
    expect(w.grid.get(3, 2)).toBe(door(COLOR.green, STATE.closed));
  });

  it('refuses to drop onto a goal, a wall or an object, and drops onto an empty cell', () => {
    for (const front of [GOAL, WALL, BLUE_BALL]) {
      const w = room(front, YELLOW_KEY);
      expect(w.step(ACT.drop).changed).toBe(false);
      expect(w.carrying).toBe(YELLOW_KEY);
      expect(w.grid.get(3, 2)).toBe(front);
    }
    const w = room(EMPTY, YELLOW_KEY);
    expect(w.step(ACT.drop).changed).toBe(true);
    expect(w.carrying).toBe(NONE);
    expect(w.grid.get(3, 2)).toBe(YELLOW_KEY);
  });

  it('picks up only with an empty hand and only pickable objects', () => {
    expect(room(BLUE_BALL, YELLOW_KEY).step(ACT.pickup).changed).toBe(false);
    expect(room(GOAL).step(ACT.pickup).changed).toBe(false);
    expect(room(door(COLOR.red, STATE.closed)).step(ACT.pickup).changed).toBe(false);
    const w = room(BLUE_BALL);
    expect(w.step(ACT.pickup).changed).toBe(true);
    expect(w.carrying).toBe(BLUE_BALL);
    expect(w.grid.get(3, 2)).toBe(EMPTY);
  });

  it('replaces a toggled box by its content, or by nothing', () => {
    const box = pack(OBJ.box, COLOR.yellow);
    const w = room();
    w.grid.set(3, 2, box, BLUE_BALL);
    w.step(ACT.toggle);
    expect(w.grid.get(3, 2)).toBe(BLUE_BALL);
    const empty = room(box);
    empty.step(ACT.toggle);
    expect(empty.grid.get(3, 2)).toBe(EMPTY);
  });

  it('carries a box with its content and puts both back on drop', () => {
    const box = pack(OBJ.box, COLOR.purple);
    const w = room();
    w.grid.set(3, 2, box, RED_KEY);
    w.step(ACT.pickup);
    expect([w.carrying, w.carryingContains]).toEqual([box, RED_KEY]);
    w.step(ACT.drop);
    expect(w.grid.getContains(3, 2)).toBe(RED_KEY);
    w.step(ACT.toggle);
    expect(w.grid.get(3, 2)).toBe(RED_KEY);
  });

  it('pays 1 − 0.9·t/T at the goal, terminating and truncating together on the last step', () => {
    const w = room(GOAL);
    w.maxSteps = 3;
    w.step(ACT.left);
    w.step(ACT.right);
    const out = w.step(ACT.forward);
    expect(out.terminated).toBe(true);
    expect(out.truncated).toBe(true);
    expect(out.reward).toBeCloseTo(1 - 0.9 * (3 / 3), 12);
    expect([w.agentX, w.agentY]).toEqual([3, 2]);
  });

  it('truncates at maxSteps without reward', () => {
    const w = room();
    w.maxSteps = 2;
    expect(w.step(ACT.done).truncated).toBe(false);
    const out = w.step(ACT.done);
    expect(out).toEqual({ reward: 0, terminated: false, truncated: true, changed: false });
  });

  it('walks into lava and terminates with 0; walls and closed doors block', () => {
    const lava = room(LAVA);
    expect(lava.step(ACT.forward)).toEqual({ reward: 0, terminated: true, truncated: false, changed: true });
    expect(lava.agentX).toBe(3);
    const wall = room(WALL);
    expect(wall.step(ACT.forward).changed).toBe(false);
    const closed = room(door(COLOR.blue, STATE.closed));
    closed.step(ACT.forward);
    expect(closed.agentX).toBe(2);
  });
});
