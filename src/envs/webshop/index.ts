// The registered WebShop-lite environments. Every id shares the seed-0 catalogue;
// they differ in the goal split reset(seed) draws from and in the action budget.
//
// | id                    | goals        | budget |
// |-----------------------|--------------|--------|
// | webshop/lite          | train split  | 9      |
// | webshop/lite-eval     | eval split   | 9      |
// | webshop/lite-test     | test split   | 9      |
// | webshop/lite-short    | train split  | 5      |
// | webshop/lite-human    | train split, human-style instructions | 9 |
// | webshop/lite-relabeled | train split, product ids shuffled per episode (8 relabelings) | 9 |
import type { EnvSpec } from '../types.js';
import { DEFAULT_BUDGET, WebShopEnv, type WebShopOptions } from './env.js';
import { pageShopper, type ShopReader } from './experts.js';

export { DEFAULT_BUDGET, WebShopEnv, type WebShopOptions, type WebShopView } from './env.js';
export { type ExpertStep, pageShopper, ruleBaseline, type ShopReader, webshopExpert } from './experts.js';

function spec(id: string, summary: string, options: WebShopOptions, heldOutId?: string): EnvSpec {
  return {
    id,
    family: 'webshop',
    summary,
    stochastic: false,
    maxSteps: options.budget ?? DEFAULT_BUDGET,
    make: () => new WebShopEnv({ ...options, id }),
    // Demonstrations come from the shopper whose every choice the agent's prompt shows.
    expert: (env) => pageShopper(env as unknown as ShopReader),
    ...(heldOutId ? { heldOutId } : {}),
  };
}

/** Every registered WebShop-lite id. */
export const webshopEnvs: EnvSpec[] = [
  spec(
    'webshop/lite',
    'WebShop-lite: find and buy the product the instruction asks for (train goals, 9 actions)',
    {},
    'webshop/lite-eval',
  ),
  spec('webshop/lite-eval', 'WebShop-lite on the held-out eval goals (500–1499)', { split: 'eval' }),
  spec('webshop/lite-test', 'WebShop-lite on the test goals (0–499), as the benchmark scores', {
    split: 'test',
  }),
  spec('webshop/lite-short', 'WebShop-lite with a 5-action budget: search, pick, options, buy', {
    budget: 5,
  }),
  spec('webshop/lite-human', 'WebShop-lite with human-style instructions (train goals)', {
    goalMode: 'human',
  }),
  spec(
    'webshop/lite-relabeled',
    'WebShop-lite (train goals) with the product ids shuffled per episode: demonstrations that read ids off the page',
    { relabelings: 8 },
    'webshop/lite-eval',
  ),
];
