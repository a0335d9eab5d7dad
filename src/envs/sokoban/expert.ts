// The Sokoban expert: the next move of a shortest solution (solver.ts) from the true state, with
// a one-line reason ("push the box Left onto a target, 1 move to solve"). The plan is kept
// between calls and re-solved only when the state is not the one the plan expected.
import { applyMove, boxesOnTarget, cloneLevel, DIRECTIONS, type Level } from './level.js';
import { isSolved, solve } from './solver.js';

/** Player and box cells as a string, box order ignored. */
function stateKey(level: Level): string {
  const boxes = level.boxes.slice().sort((a, b) => a - b);
  return `${level.player}:${boxes.join(',')}`;
}

/** Plans shortest solutions and hands them out one move at a time. */
export class SokobanPlanner {
  private plan: { key: string; actions: string[] } | null = null;

  /** Forgets the plan (a new episode). */
  clear(): void {
    this.plan = null;
  }

  /** The next move from `level` (not modified) and why. */
  next(level: Level): { action: string; reason: string } {
    const key = stateKey(level);
    if (this.plan?.key !== key) {
      const solution = solve(level);
      this.plan = solution ? { key, actions: solution.actions } : null;
    }
    const plan = this.plan;
    if (!plan || plan.actions.length === 0) {
      const reason = isSolved(level) ? 'the puzzle is solved' : 'no solution from here: a box is stuck';
      return { action: 'Up', reason: `${reason}, Up` };
    }
    const action = plan.actions[0] as string;
    const left = plan.actions.length;
    const probe = cloneLevel(level);
    const moved = applyMove(probe, DIRECTIONS.indexOf(action as (typeof DIRECTIONS)[number]));
    this.plan = { key: stateKey(probe), actions: plan.actions.slice(1) };
    const moves = `${left} move${left > 1 ? 's' : ''} to solve`;
    const box = level.boxes.length > 1 ? 'a box' : 'the box';
    if (!moved.pushed) return { action, reason: `walk ${action} to get behind ${box}, ${moves}` };
    const ontoTarget = boxesOnTarget(probe) > boxesOnTarget(level);
    return { action, reason: `push ${box} ${action}${ontoTarget ? ' onto a target' : ''}, ${moves}` };
  }
}
