// GoToDoor (Farama MiniGrid 3.x `envs/gotodoor.py`).
//
// ## Description
// A room of random size (5..size on each side) with four closed doors of distinct random
// colours, one on each wall. The agent (random pose) must stand next to the door named in the
// mission and say "done". Opening a door ends the episode. Walls are see-through.
//
// ## Mission
// "go to the {color} door"
//
// ## Observation (GoToDoor-5x5, seed 0; the first line is the mission, then BALROG's lines)
// Mission: go to the purple door
// a closed red door 2 steps left
// a closed yellow door 2 steps forward
// a closed purple door 2 steps right
//
// ## Actions
// turn left, turn right, go forward, pick up, drop, toggle, done.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps for "done" next to the target door, 0 otherwise.
//
// ## Termination
// "done" or "toggle" is used, or maxSteps = 4 · size² steps pass.
//
// ## Registered ids
// minigrid/GoToDoor-5x5, minigrid/GoToDoor-6x6, minigrid/GoToDoor-8x8
import { COLOR, COLOR_NAMES, type ColorName, OBJ, pack, STATE } from '../constants.js';
import { goAndAct } from '../expert.js';
import type { Family } from '../family.js';
import { Grid } from '../grid.js';
import { placeAgent } from '../placement.js';
import { ACT } from '../world.js';

export interface GoToDoorParams {
  size: number;
}

/** The GoToDoor family. */
export const goToDoorFamily: Family<GoToDoorParams> = {
  name: 'GoToDoor',
  summary: 'Stand next to the named door and say done.',
  actions: [0, 1, 2, 3, 4, 5, 6],
  stochastic: false,
  variants: [5, 6, 8].map((size) => ({ name: `GoToDoor-${size}x${size}`, params: { size } })),
  maxSteps: (p) => 4 * p.size * p.size,
  generate(world, rng, p) {
    world.grid = new Grid(p.size, p.size);
    const w = rng.int(5, p.size + 1);
    const h = rng.int(5, p.size + 1);
    world.grid.wallRect(0, 0, w, h);
    const doorPos: [number, number][] = [
      [rng.int(2, w - 2), 0],
      [rng.int(2, w - 2), h - 1],
      [0, rng.int(2, h - 2)],
      [w - 1, rng.int(2, h - 2)],
    ];
    const colors: ColorName[] = [];
    while (colors.length < doorPos.length) {
      const c = rng.choice(COLOR_NAMES);
      if (!colors.includes(c)) colors.push(c);
    }
    doorPos.forEach(([x, y], i) => {
      world.grid.set(x, y, pack(OBJ.door, COLOR[colors[i] as ColorName], STATE.closed));
    });
    placeAgent(world, rng, [0, 0], [w, h]);
    const target = rng.int(0, doorPos.length);
    const [tx, ty] = doorPos[target] as [number, number];
    const color = colors[target] as ColorName;
    world.mission = `go to the ${color} door`;
    world.maxSteps = 4 * p.size * p.size;
    world.seeThroughWalls = true;
    return {
      afterStep(action, out) {
        if (action === ACT.toggle) out.terminated = true;
        if (action === ACT.done) {
          const ax = world.agentX;
          const ay = world.agentY;
          if ((ax === tx && Math.abs(ay - ty) === 1) || (ay === ty && Math.abs(ax - tx) === 1)) {
            out.reward = world.successReward();
          }
          out.terminated = true;
        }
      },
      expert() {
        const next = (x: number, y: number) => Math.abs(x - tx) + Math.abs(y - ty) === 1;
        return goAndAct(world, next, `the ${color} door`, tx, ty, ACT.done, { openDoors: false });
      },
      extra: () => ({ target: [tx, ty] }),
    };
  },
};
