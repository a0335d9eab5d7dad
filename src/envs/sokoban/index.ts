// The registered Sokoban environments (RAGEN's SimpleSokoban family) and their scripted expert.
//
// | id                            | room  | boxes | reverse-play depth | symbols   |
// |-------------------------------|-------|-------|--------------------|-----------|
// | sokoban/Sokoban-6x6           | 6 × 6 | 1     | 300                | paper     |
// | sokoban/Sokoban-6x6-newvocab  | 6 × 6 | 1     | 300                | W . G C B A @ (DifferentGridVocab) |
// | sokoban/Sokoban-8x8-2box      | 8 × 8 | 2     | 10                 | paper (LargerSokoban) |
// | sokoban/Sokoban-6x6-any       | 6 × 6 | 1     | 300                | paper, no solution-length filter |
// Every id: 10 actions per episode (RAGEN: 5 turns × up to 5 actions, at most 10 per trajectory).
//
// Using the expert:
//   const env = makeEnv('sokoban/Sokoban-6x6');
//   env.reset(seed);
//   const { action, reason } = sokobanExpert(env);  // e.g. "Left", "push the box Left onto the target, 1 move to solve"
//   env.step(action);
import type { EnvSpec, TextEnv } from '../types.js';
import { SokobanEnv, type SokobanOptions } from './env.js';
import { NEW_VOCAB_SYMBOLS } from './level.js';

export {
  SOKOBAN_INSTRUCTION,
  SokobanEnv,
  type SokobanOptions,
  type SokobanView,
} from './env.js';
export { type Level, NEW_VOCAB_SYMBOLS, PAPER_SYMBOLS, parseLevel, type SymbolTable } from './level.js';
export { solve } from './solver.js';

const MAX_ACTIONS = 10;

function spec(id: string, summary: string, options: SokobanOptions): EnvSpec {
  return {
    id,
    family: 'sokoban',
    summary,
    stochastic: false,
    maxSteps: options.maxSteps ?? MAX_ACTIONS,
    make: (): TextEnv => new SokobanEnv({ ...options, id }),
    expert: (env: TextEnv) => sokobanExpert(env),
  };
}

/** Every registered Sokoban id. */
export const sokobanEnvs: EnvSpec[] = [
  spec(
    'sokoban/Sokoban-6x6',
    'SimpleSokoban: push 1 box onto its target in a 6×6 room (5 turns, 10 actions)',
    {},
  ),
  spec(
    'sokoban/Sokoban-6x6-newvocab',
    'SimpleSokoban drawn with other symbols (W . G C B A @), as RAGEN’s DifferentGridVocab',
    { symbols: NEW_VOCAB_SYMBOLS },
  ),
  spec(
    'sokoban/Sokoban-8x8-2box',
    'LargerSokoban: push 2 boxes onto targets in an 8×8 room (5 turns, 10 actions)',
    { rows: 8, cols: 8, boxes: 2, searchDepth: 10 },
  ),
  spec(
    'sokoban/Sokoban-6x6-any',
    'SimpleSokoban with every generated level, some needing more than 10 actions (as the paper)',
    { solutionLimit: null },
  ),
];

/**
 * The scripted expert's next action for an env made by one of `sokobanEnvs` (after `reset`): the
 * next move of a shortest solution (breadth-first search over player and box positions) and a
 * one-line reason. Throws for other envs.
 */
export function sokobanExpert(env: TextEnv): { action: string; reason: string } {
  if (!(env instanceof SokobanEnv)) throw new Error(`sokobanExpert: ${env.id} is not a Sokoban env`);
  return env.expert();
}
