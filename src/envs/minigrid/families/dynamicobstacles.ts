// Dynamic-Obstacles (Farama MiniGrid 3.x `envs/dynamicobstacles.py`). Stochastic.
//
// ## Description
// The Empty room (goal in the bottom-right corner, agent at (1, 1) facing right, or a random
// pose in the Random variants) with blue balls that move: before each agent step, every ball
// jumps to a random free cell of its 3×3 neighbourhood (it stays put if 100 draws find none).
// A "go forward" whose front cell held anything but the goal before the balls moved (a ball or
// a wall) ends the episode with reward −1. Walls are see-through.
//
// ## Mission
// "get to the green goal square"
//
// ## Observation (Dynamic-Obstacles-5x5, seed 0; the first line is the mission, then BALROG's lines)
// Mission: get to the green goal square
// a wall 3 steps forward
// a wall 1 step left
// a blue ball 1 step right and 2 steps forward
// a blue ball 1 step right
// a green goal 2 steps right and 2 steps forward
//
// ## Actions
// turn left, turn right, go forward only.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps at the goal; −1 for walking into an obstacle or wall.
//
// ## Termination
// The goal is reached, a collision happens, or maxSteps = 4 · size² steps pass.
//
// ## Registered ids
// minigrid/Dynamic-Obstacles-5x5, -6x6, -8x8, -16x16, -Random-5x5, -Random-6x6
import { BLUE_BALL, EMPTY, GOAL, OBJ, typeOf } from '../constants.js';
import { objectName, reachCell } from '../expert.js';
import type { Family } from '../family.js';
import { Grid } from '../grid.js';
import { PlacementError, placeAgent, placeObj } from '../placement.js';
import { planFirst, standingOn } from '../planner.js';
import { ACT } from '../world.js';

export interface DynamicObstaclesParams {
  size: number;
  numObstacles: number;
  randomStart: boolean;
}

/** The Dynamic-Obstacles family. */
export const dynamicObstaclesFamily: Family<DynamicObstaclesParams> = {
  name: 'Dynamic-Obstacles',
  summary: 'Reach the goal while balls wander around the room; do not bump into them.',
  actions: [ACT.left, ACT.right, ACT.forward],
  stochastic: true,
  variants: [
    { name: 'Dynamic-Obstacles-5x5', params: { size: 5, numObstacles: 2, randomStart: false } },
    { name: 'Dynamic-Obstacles-Random-5x5', params: { size: 5, numObstacles: 2, randomStart: true } },
    { name: 'Dynamic-Obstacles-6x6', params: { size: 6, numObstacles: 3, randomStart: false } },
    { name: 'Dynamic-Obstacles-Random-6x6', params: { size: 6, numObstacles: 3, randomStart: true } },
    { name: 'Dynamic-Obstacles-8x8', params: { size: 8, numObstacles: 4, randomStart: false } },
    { name: 'Dynamic-Obstacles-16x16', params: { size: 16, numObstacles: 8, randomStart: false } },
  ],
  maxSteps: (p) => 4 * p.size * p.size,
  generate(world, rng, p, stepRng) {
    const s = p.size;
    // Upstream caps the count at size / 2 (+ 1).
    const n = p.numObstacles <= s / 2 + 1 ? Math.floor(p.numObstacles) : Math.floor(s / 2);
    world.grid = new Grid(s, s);
    world.grid.wallRect(0, 0, s, s);
    world.grid.set(s - 2, s - 2, GOAL);
    if (p.randomStart) {
      placeAgent(world, rng);
    } else {
      world.agentX = 1;
      world.agentY = 1;
      world.agentDir = 0;
    }
    const balls: [number, number][] = [];
    for (let i = 0; i < n; i++) balls.push(placeObj(world, rng, BLUE_BALL, [0, 0], [s, s], undefined, 100));
    world.mission = 'get to the green goal square';
    world.maxSteps = 4 * s * s;
    world.seeThroughWalls = true;
    let notClear = false;
    return {
      beforeStep(action) {
        const front = world.grid.get(world.frontX(), world.frontY());
        notClear = front !== EMPTY && typeOf(front) !== OBJ.goal;
        for (const ball of balls) {
          const [ox, oy] = ball;
          try {
            const [nx, ny] = placeObj(
              world,
              stepRng ?? rng,
              BLUE_BALL,
              [ox - 1, oy - 1],
              [3, 3],
              undefined,
              100,
            );
            world.grid.set(ox, oy, EMPTY);
            ball[0] = nx;
            ball[1] = ny;
          } catch (err) {
            if (!(err instanceof PlacementError)) throw err;
          }
        }
        return action;
      },
      afterStep(action, out) {
        if (action === ACT.forward && notClear) {
          out.reward = -1;
          out.terminated = true;
        }
      },
      expert() {
        // Forward only into a cell that is free now: the penalty looks at the cell before the
        // balls move, so a free cell is always safe (a ball moving in just blocks the step).
        const plan = planFirst(world, standingOn(s - 2, s - 2));
        if (plan === null || plan.action < 0) {
          const fx = world.frontX();
          const fy = world.frontY();
          const blocker = world.grid.get(fx, fy);
          const what = typeOf(blocker) === OBJ.ball ? objectName(blocker) : 'a ball';
          return { action: ACT.left, reason: `${what} blocks the way to the green goal, turn left and wait` };
        }
        return reachCell(world, s - 2, s - 2, 'the green goal');
      },
      extra: () => ({ obstacles: balls.map(([x, y]) => [x, y]) }),
    };
  },
};
