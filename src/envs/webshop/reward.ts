// WebShop's purchase reward (web_agent_site/engine/goal.py: get_reward, get_type_reward,
// get_attribute_reward, get_option_reward), exact up to one documented substitution: where
// upstream keeps the spaCy NOUN/PROPN tokens of a title, we keep its lowercase alphabetic
// tokens (regex [a-z]+), in order with duplicates, minus the stopwords (docs/cli-contracts.md).
import { normalizeColor } from './colors.js';
import { tokenSetRatio } from './fuzz.js';
import { contentTokens } from './stopwords.js';
import type { Goal, Product } from './types.js';

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
 * get_option_reward's count: the goal options (colour-normalised) that some chosen value
 * (colour-normalised) matches with token_set_ratio > 85, each goal option counted at most once.
 * Every option name is compared the same fuzzy way, and both sides go through thefuzz's default
 * processing first, so "x-small" matches "small". No goal options means no match is counted.
 */
export function optionMatches(goalOptions: readonly string[], chosen: Record<string, string>): number {
  const purchased = Object.values(chosen).map(normalizeColor);
  let n = 0;
  for (const raw of goalOptions) {
    const g = normalizeColor(raw);
    if (purchased.some((p) => tokenSetRatio(p, g) > 85)) n++;
  }
  return n;
}

/**
 * get_reward for buying `product` at `price` with options `chosen` under `goal`, in [0, 1]:
 * each goal attribute and goal option is counted at most once, so the numerator never exceeds
 * the denominator (|attributes| + |goalOptions| + 1).
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
  const numOpt = optionMatches(goal.goalOptions, chosen);
  let reward = (numAttr + numOpt + rPrice) / (goal.attributes.length + goal.goalOptions.length + 1);
  reward *= rType;
  return { reward, rType, numAttr, numOpt, rPrice };
}
