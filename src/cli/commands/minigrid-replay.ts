// `starpo minigrid-replay`: replays hand-built MiniGrid scenarios over JSON Lines
// (docs/cli-contracts.md): MiniGrid's step semantics and encoded view, BabyAI-Text's
// descriptions. The logic lives in envs/minigrid/replay.ts.
import { replayLine } from '../../envs/minigrid/replay.js';
import { type Command, UsageError } from '../command.js';
import { mapJsonLines } from '../jsonl.js';

export const minigridReplayCommand: Command = {
  name: 'minigrid-replay',
  summary: 'Replay MiniGrid scenarios: frames with image and text (docs/cli-contracts.md)',
  usage: [
    'usage: npm run -s starpo -- minigrid-replay < scenarios.jsonl > frames.jsonl',
    '',
    'Reads one scenario per line: {"id", "width", "height", "cells", "agent", "maxSteps",',
    '"seeThroughWalls", "actions"}, and writes {"id", "frames": [...]} per line, in order.',
    'Frame 0 is the observation before any action; then one frame per action until the',
    'episode terminates or is truncated. A bad line yields {"id": ..., "error": "..."}',
    'naming the bad field, and the run goes on.',
  ].join('\n'),
  async run(args, io) {
    if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
    await mapJsonLines(io.stdin, io.stdout, replayLine);
    return 0;
  },
};
