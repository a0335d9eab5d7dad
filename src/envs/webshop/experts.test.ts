// The scripted shoppers on the test split: the stronger shopper must clearly beat WebShop's
// rule baseline, and its steps must be valid actions with reasons.
import { describe, expect, it } from 'vitest';
import { WebShopEnv } from './env.js';
import {
  keyTerms,
  pageShopper,
  ruleBaseline,
  type ShopReader,
  searchQuery,
  statedPriceBound,
  webshopExpert,
} from './experts.js';

type Policy = (env: ShopReader) => { action: string; reason: string };

function evaluate(policy: Policy, episodes: number) {
  const env = new WebShopEnv({ split: 'test' });
  let score = 0;
  let wins = 0;
  let invalid = 0;
  for (let seed = 0; seed < episodes; seed++) {
    env.reset(seed);
    for (;;) {
      const step = policy(env);
      expect(step.reason.length).toBeGreaterThan(0);
      const r = env.step(step.action);
      if (!r.info.actionIsValid) invalid++;
      if (r.done) {
        score += r.reward;
        wins += r.info.success ? 1 : 0;
        break;
      }
    }
  }
  return { score: (100 * score) / episodes, successRate: wins / episodes, invalid };
}

describe('experts', () => {
  it('parses what an instruction asks', () => {
    const text =
      'find me sulfate free tea tree shampoo with scent: lavender, and size: 8 fl oz, and price lower than 30.00 dollars';
    expect(statedPriceBound(text)).toBe(30);
    expect(statedPriceBound('i need soap')).toBe(Number.POSITIVE_INFINITY);
    expect(keyTerms(text)).toEqual(['sulfate', 'free', 'tea', 'tree', 'shampoo']);
    expect(searchQuery(text)).toBe('sulfate free tea tree shampoo');
    expect(
      searchQuery('i am looking for low carb, gluten free keto bars, and price lower than 40.00 dollars'),
    ).toBe('low carb, gluten free keto bars');
    expect(searchQuery('get me tea tree shampoo that is paraben free')).toBe(
      'tea tree shampoo that is paraben free',
    );
  });

  it('the stronger shopper clearly beats the rule baseline on the test split', () => {
    const rule = evaluate(ruleBaseline, 500);
    const expert = evaluate(webshopExpert, 500);
    expect(rule.invalid).toBe(0);
    expect(expert.invalid).toBe(0);
    expect(expert.score).toBeGreaterThan(rule.score + 10);
    expect(expert.successRate).toBeGreaterThan(rule.successRate + 0.3);
  });

  it('the page shopper decides from the prompt alone: the top result, never back, between the two', () => {
    const env = new WebShopEnv({ split: 'test' });
    for (let seed = 0; seed < 100; seed++) {
      env.reset(seed);
      for (;;) {
        const v = env.view();
        const step = pageShopper(env);
        if (v.page === 'results') {
          expect(step.action).toBe(`click[${v.results?.products[0]?.asin.toLowerCase()}]`);
        }
        expect(step.action).not.toBe('click[< prev]');
        if (env.step(step.action).done) break;
      }
    }
    const rule = evaluate(ruleBaseline, 500);
    const page = evaluate(pageShopper, 500);
    const expert = evaluate(webshopExpert, 500);
    expect(page.invalid).toBe(0);
    expect(page.successRate).toBeGreaterThan(rule.successRate + 0.15);
    expect(expert.successRate).toBeGreaterThan(page.successRate + 0.15);
  });
});
