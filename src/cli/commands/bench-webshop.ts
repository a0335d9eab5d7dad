// `starpo bench-webshop`: WebShop-lite throughput (env steps per second, searches included)
// and the two scripted shoppers' score (mean reward × 100) and success rate on the test split,
// printed as JSON beside WebShop's published figures, which come from a different catalogue.
import { writeFileSync } from 'node:fs';
import { Rng } from '../../core/rng.js';
import type { GoalMode } from '../../envs/webshop/goals.js';
import { ruleBaseline, WebShopEnv, webshopExpert } from '../../envs/webshop/index.js';
import { getShop } from '../../envs/webshop/shop.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

/** WebShop paper, test split (500 goals), real 1.18M-product catalogue, human instructions. */
const UPSTREAM = {
  note: 'WebShop (Yao et al., 2022) on its real Amazon catalogue with human instructions: a different catalogue, for scale only',
  rule: { score: 45.6, successRate: 0.096 },
  humanExpert: { score: 82.1, successRate: 0.596 },
};

interface BenchArgs {
  seed: number;
  episodes: number;
  goalMode: GoalMode;
  budget: number;
  out: string | null;
}

const FLAGS: FlagSpec[] = [
  { name: 'seed', kind: 'int', help: 'the first seed (default 0)' },
  { name: 'episodes', kind: 'int', help: 'episodes per policy (default 500)' },
  { name: 'budget', kind: 'int', help: 'actions per episode (default 9)' },
  { name: 'goal-mode', kind: 'string', help: 'synthetic or human goals (default synthetic)' },
  { name: 'out', kind: 'string', help: 'also write the JSON to this file' },
];

function parseBenchArgs(args: string[]): BenchArgs {
  const f = parseFlags(args, FLAGS);
  const int = (name: string, fallback: number, min: number) => {
    const n = f[name] === undefined ? fallback : Number(f[name]);
    if (n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${f[name]}"`);
    return n;
  };
  const goalMode = f['goal-mode'] ?? 'synthetic';
  if (goalMode !== 'synthetic' && goalMode !== 'human')
    throw new UsageError('--goal-mode must be synthetic or human');
  return {
    seed: int('seed', 0, 0),
    episodes: int('episodes', 500, 1),
    goalMode,
    budget: int('budget', 9, 1),
    out: typeof f.out === 'string' ? f.out : null,
  };
}

type Policy = typeof webshopExpert;

function scorePolicy(env: WebShopEnv, policy: Policy, episodes: number) {
  let total = 0;
  let wins = 0;
  for (let seed = 0; seed < episodes; seed++) {
    env.reset(seed);
    for (;;) {
      const r = env.step(policy(env).action);
      if (r.done) {
        total += r.reward;
        wins += r.info.success ? 1 : 0;
        break;
      }
    }
  }
  return {
    score: Math.round((1000 * total) / episodes) / 10,
    successRate: Math.round((1000 * wins) / episodes) / 1000,
  };
}

/** Steps per second of a seeded random shopper (searches with instruction words, random clicks). */
function throughput(env: WebShopEnv, episodes: number, seed: number) {
  const rng = new Rng(seed).fork('bench-webshop');
  let steps = 0;
  let searches = 0;
  const start = performance.now();
  for (let e = 0; e < episodes; e++) {
    env.reset(rng.int(0, 2 ** 31));
    for (;;) {
      const actions = env.validActions();
      let action: string;
      if (actions === null) {
        const words = env.instruction().split(' ');
        action = `search[${rng.shuffle(words).slice(0, rng.int(2, 7)).join(' ')}]`;
        searches++;
      } else action = rng.choice(actions);
      steps++;
      if (env.step(action).done) break;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    stepsPerSec: Math.round(steps / seconds),
    steps,
    searches,
    episodes,
    seconds: Math.round(seconds * 1000) / 1000,
  };
}

export const benchWebshopCommand: Command = {
  name: 'bench-webshop',
  summary: 'WebShop-lite steps/s and the scripted shoppers’ score and success rate (JSON)',
  usage: [
    'usage: npm run -s starpo -- bench-webshop [--seed 0] [--episodes 500] [--goal-mode synthetic|human]',
    '                                          [--budget 9] [--out bench-webshop.json]',
    '',
    'Scores the rule baseline (search the instruction, open the first result, buy) and the',
    'scripted shopper on the first --episodes goals of the test split of catalogue --seed, and',
    'measures env steps per second with a random shopper. Prints JSON (and writes it to --out).',
    '',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const a = parseBenchArgs(args);
    const t0 = performance.now();
    const shop = getShop(a.seed);
    const goals = shop.goals(a.goalMode).length;
    const buildMs = Math.round(performance.now() - t0);
    const env = new WebShopEnv({
      catalogueSeed: a.seed,
      split: 'test',
      goalMode: a.goalMode,
      budget: a.budget,
    });
    const episodes = Math.min(a.episodes, 500);
    const report = {
      catalogue: { seed: a.seed, products: shop.products.length, goals, goalMode: a.goalMode, buildMs },
      throughput: throughput(env, Math.max(50, episodes), a.seed),
      testSplit: {
        episodes,
        budget: a.budget,
        ruleBaseline: scorePolicy(env, ruleBaseline, episodes),
        scriptedShopper: scorePolicy(env, webshopExpert, episodes),
      },
      upstreamReference: UPSTREAM,
    };
    const text = `${JSON.stringify(report, null, 2)}\n`;
    io.stdout.write(text);
    if (a.out) writeFileSync(a.out, text);
    return 0;
  },
};
