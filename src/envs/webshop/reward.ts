// WebShop's purchase reward (web_agent_site/engine/goal.py: get_reward, get_type_reward,
// get_attribute_reward, get_option_reward), exact up to one documented substitution: where
// upstream keeps the spaCy NOUN/PROPN tokens of a title, we keep its lowercase alphabetic
// tokens (regex [a-z]+), in order with duplicates, minus the stopwords (contracts/webshop.md).
import { normalizeColor } from './colors.js';
import { tokenSetRatio } from './fuzz.js';
import { contentTokens } from './stopwords.js';
import type { Goal, Product } from './types.js';

/** Option names compared exactly rather than fuzzily (upstream EXACT_MATCH_OPTS). */
const EXACT_MATCH_OPTS = ['size'];

/** The reward and its parts, as the contract's output line names them. */
export interface RewardBreakdown {
  /** r_type × (numAttr + numOpt + rPrice) / (|attributes| + |goalOptions| + 1). */
  reward: number;
  /** 1, 0.5, 0.1 or 0: whether the bought product is the right kind of thing. */
  rType: number;
  numAttr: number;
  numOpt: number;
  /** 1 when the price is within the goal's bound, else 0. */
  rPrice: number;
}

/** The title tokens standing in for spaCy's nouns. */
export function titleTypeTokens(title: string): string[] {
  return contentTokens(title, /[a-z]+/g);
}

/** get_type_reward: query match, category overlap of ≥ 2 parts, or title-noun overlap. */
export function typeReward(product: Product, goal: Goal): number {
  const queryMatch = product.query === goal.query;
  const parts = (c: string) => new Set(c.split('›').map((x) => x.trim()));
  const goalParts = parts(goal.category);
  let shared = 0;
  for (const p of parts(product.category)) if (goalParts.has(p)) shared++;
  const categoryMatch = shared >= 2;
  const purchased = new Set(titleTypeTokens(product.title));
  const desired = titleTypeTokens(goal.name);
  const desiredSet = new Set(desired);
  let intersect = 0;
  for (const t of desiredSet) if (purchased.has(t)) intersect++;
  const titleScore = desired.length === 0 ? 0.2 : intersect / desired.length;
  let rType = 1.0;
  if (!(queryMatch || categoryMatch || titleScore > 0.2)) rType = 0.5;
  if (titleScore < 0.1) rType = 0.1;
  if (titleScore === 0) rType = 0.0;
  return rType;
}

function inTexts(product: Product, needle: string): boolean {
  return (
    product.title.toLowerCase().includes(needle) ||
    product.bulletPoints.join(' ').toLowerCase().includes(needle) ||
    product.description.toLowerCase().includes(needle)
  );
}

/** get_attribute_reward: goal attributes found among the product's (token_set_ratio > 85) or in its texts. */
export function attributeMatches(product: Product, goal: Goal): number {
  let n = 0;
  for (const g of goal.attributes) {
    const matched = product.attributes.some((p) => tokenSetRatio(p, g) > 85);
    if (matched || inTexts(product, g)) n++;
  }
  return n;
}

/**
 * get_option_reward: each chosen option (colour-normalised) that matches a goal option — exactly
 * for "size", by token_set_ratio > 85 otherwise — or occurs in the product's texts.
 */
export function optionMatches(
  product: Product,
  goalOptions: string[],
  chosen: Record<string, string>,
): number {
  const goals = goalOptions.map(normalizeColor);
  let n = 0;
  for (const [key, raw] of Object.entries(chosen)) {
    const v = normalizeColor(raw);
    let matched = false;
    if (EXACT_MATCH_OPTS.includes(key.toLowerCase())) {
      matched = goals.includes(v);
    } else {
      matched = goals.some((g) => tokenSetRatio(g, v) > 85);
    }
    if (matched || inTexts(product, v)) n++;
  }
  return n;
}

/**
 * get_reward for buying `product` at `price` with options `chosen` under `goal`.
 * The reward lies in [0, 1] when at most one value is chosen per goal option, as the shop
 * enforces; upstream's formula can exceed 1 otherwise, and so can this one.
 */
export function getReward(
  product: Product,
  goal: Goal,
  price: number,
  chosen: Record<string, string>,
): RewardBreakdown {
  const rType = typeReward(product, goal);
  const rPrice = price <= goal.priceUpper ? 1 : 0;
  const numAttr = attributeMatches(product, goal);
  const numOpt = optionMatches(product, goal.goalOptions, chosen);
  let reward = (numAttr + numOpt + rPrice) / (goal.attributes.length + goal.goalOptions.length + 1);
  reward *= rType;
  return { reward, rType, numAttr, numOpt, rPrice };
}
