// `starpo webshop-reward`: WebShop's get_reward over JSON Lines (docs/cli-contracts.md).
import { parseChosen, parseGoal, parseProduct } from '../../envs/webshop/json.js';
import { getReward } from '../../envs/webshop/reward.js';
import { type Command, UsageError } from '../command.js';
import { mapJsonLines } from '../jsonl.js';

/** Scores one contract input line: {id, product, goal, chosen}. */
export function rewardLine(value: unknown): object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('line must be a JSON object with id, product, goal and chosen');
  }
  const line = value as Record<string, unknown>;
  const id = line.id ?? null;
  if (id !== null && typeof id !== 'string' && typeof id !== 'number') {
    throw new Error('id must be a string or a number');
  }
  const product = parseProduct(line.product);
  const goal = parseGoal(line.goal);
  const chosen = parseChosen(line.chosen);
  const r = getReward(product, goal, product.price, chosen);
  return { id, reward: r.reward, rType: r.rType, numAttr: r.numAttr, numOpt: r.numOpt, rPrice: r.rPrice };
}

export const webshopRewardCommand: Command = {
  name: 'webshop-reward',
  summary: 'WebShop purchase reward for JSON Lines cases (docs/cli-contracts.md)',
  usage: [
    'usage: npm run -s starpo -- webshop-reward < cases.jsonl',
    '',
    'Reads one {"id", "product", "goal", "chosen"} object per line and writes',
    '{"id", "reward", "rType", "numAttr", "numOpt", "rPrice"} per line, in order.',
    'A bad line yields {"id": ..., "error": "..."} and the run goes on.',
  ].join('\n'),
  async run(args, io) {
    if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
    await mapJsonLines(io.stdin, io.stdout, rewardLine);
    return 0;
  },
};
