// Fetch (Farama MiniGrid 3.x `envs/fetch.py`).
//
// ## Description
// A room with N keys and balls of random colours and a randomly placed agent. The agent must
// pick up an object of the colour and type named in the mission; picking up any other object
// ends the episode without reward. Walls are see-through.
//
// ## Mission
// One of "get a", "go get a", "fetch a", "go fetch a", "you must fetch a", then
// "{color} {type}", e.g. "fetch a red key".
//
// ## Observation (Fetch-5x5-N2, seed 0; the first line is the mission, then BALROG's lines)
// Mission: you must fetch a purple key
// a wall 3 steps forward
// a wall 2 steps left
// a wall 2 steps right
// a purple key 1 step left and 1 step forward
// a red ball 1 step right and 1 step forward
//
// ## Actions
// turn left, turn right, go forward, pick up, drop, toggle.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps for picking up a matching object, 0 otherwise.
//
// ## Termination
// Anything is picked up, or maxSteps = 5 · size² steps pass.
//
// ## Registered ids
// minigrid/Fetch-5x5-N2, minigrid/Fetch-6x6-N2, minigrid/Fetch-8x8-N3
import { COLOR, COLOR_NAMES, DIR_DX, DIR_DY, NONE, OBJ, pack } from '../constants.js';
import { goAndAct, objectName } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { placeAgent, placeObj } from '../placement.js';
import { ACT } from '../world.js';

export interface FetchParams {
  size: number;
  numObjs: number;
}

const SYNTAX = ['get a', 'go get a', 'fetch a', 'go fetch a', 'you must fetch a'] as const;

/** The Fetch family. */
export const fetchFamily: Family<FetchParams> = {
  name: 'Fetch',
  summary: 'Pick up the object named in the mission and nothing else.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [
    { name: 'Fetch-5x5-N2', params: { size: 5, numObjs: 2 } },
    { name: 'Fetch-6x6-N2', params: { size: 6, numObjs: 2 } },
    { name: 'Fetch-8x8-N3', params: { size: 8, numObjs: 3 } },
  ],
  maxSteps: (p) => 5 * p.size * p.size,
  generate(world, rng, p) {
    const s = p.size;
    world.grid = new Grid(s, s);
    world.grid.horzWall(0, 0);
    world.grid.horzWall(0, s - 1);
    world.grid.vertWall(0, 0);
    world.grid.vertWall(s - 1, 0);
    const objs: number[] = [];
    while (objs.length < p.numObjs) {
      const type = rng.choice(['key', 'ball'] as const);
      const color = rng.choice(COLOR_NAMES);
      const code = pack(OBJ[type], COLOR[color]);
      placeObj(world, rng, code);
      objs.push(code);
    }
    placeAgent(world, rng);
    const target = objs[rng.int(0, objs.length)] as number;
    const syntax = SYNTAX[rng.int(0, 5)] as string;
    world.mission = `${syntax} ${objectName(target).slice(4)}`;
    world.maxSteps = 5 * s * s;
    world.seeThroughWalls = true;
    return {
      afterStep(_action, out) {
        if (world.carrying === NONE) return;
        out.reward = world.carrying === target ? world.successReward() : 0;
        out.terminated = true;
      },
      expert() {
        const g = world.grid;
        const facesTarget = (x: number, y: number, d: number) =>
          g.get(x + (DIR_DX[d] as number), y + (DIR_DY[d] as number)) === target;
        // Name the nearest matching object in the reason.
        let best: [number, number] = [world.agentX, world.agentY];
        let bestD = Number.POSITIVE_INFINITY;
        for (let y = 0; y < s; y++) {
          for (let x = 0; x < s; x++) {
            const d = Math.abs(x - world.agentX) + Math.abs(y - world.agentY);
            if (g.get(x, y) === target && d < bestD) {
              bestD = d;
              best = [x, y];
            }
          }
        }
        return goAndAct(world, facesTarget, objectName(target), best[0], best[1], ACT.pickup);
      },
    };
  },
};
