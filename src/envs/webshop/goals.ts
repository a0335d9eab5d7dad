// Shopping goals of WebShop-lite, after WebShop's goal.py: synthetic goals (one per option
// combination of each product: "{instruction} with k: v, and k: v{price text}") or human-style
// ones (one per product, natural phrasing), the price-bound rule, the fixed shuffle, and the
// fixed splits (test 0–499, eval 500–1499, train 1500+) with RAGEN's seed → goal mapping.
import { Rng } from '../../core/rng.js';
import { HUMAN_OPENERS, SYNTHETIC_OPENERS } from './catalogue-data.js';
import type { Goal, ShopProduct } from './types.js';

export type GoalMode = 'synthetic' | 'human';
export type Split = 'test' | 'eval' | 'train';

/** Price bound used when the instruction names none (upstream 1000000). */
export const NO_PRICE_BOUND = 1_000_000;
/** Upstream PRICE_RANGE: 10, 20, …, 990. */
const PRICE_RANGE = Array.from({ length: 99 }, (_, i) => 10 * (i + 1));
/** First goal index and size of the test and eval splits; train is the rest. */
const TEST_SIZE = 500;
const EVAL_SIZE = 1000;
/** Human-style goals made per product (so that the train split is not empty). */
const HUMAN_GOALS_PER_PRODUCT = 3;

/**
 * upstream's price rule: the first four of 10, 20, … above the price; with at least two,
 * the bound is the larger of two drawn without replacement, else there is no bound.
 */
export function priceBound(rng: Rng, price: number): { priceUpper: number; text: string } {
  const cands = PRICE_RANGE.filter((p) => p > price).slice(0, 4);
  if (cands.length < 2) return { priceUpper: NO_PRICE_BOUND, text: '' };
  const [x, y] = rng.shuffle([...cands]) as [number, number];
  const priceUpper = Math.max(x, y);
  return { priceUpper, text: `, and price lower than ${priceUpper.toFixed(2)} dollars` };
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function syntheticBase(rng: Rng, p: ShopProduct, attrs: string[]): string {
  const opener = rng.choice(SYNTHETIC_OPENERS);
  if (rng.bool()) return `${opener} ${attrs.join(', ')} ${p.query}`;
  return `${opener} ${p.query} that is ${attrs.join(' and ')}`;
}

function humanText(rng: Rng, p: ShopProduct, attrs: string[], chosen: [string, string][]): string {
  const opener = rng.choice(HUMAN_OPENERS);
  const head = `${attrs.join(' and ')} ${p.query}`;
  const phrases = chosen.map(([name, value]) => (name === 'size' ? `size ${value}` : `${value} ${name}`));
  const opts = phrases.length > 0 ? ` in ${phrases.join(' and ')}` : '';
  return `${opener} ${article(head)} ${head}${opts}`;
}

function combinations(options: Record<string, string[]>, names: string[]): string[][] {
  let combos: string[][] = [[]];
  for (const name of names) {
    combos = combos.flatMap((c) => (options[name] ?? []).map((v) => [...c, v]));
  }
  return combos;
}

/** All goals of a catalogue, shuffled with a fixed stream (upstream: random.seed(233)). */
export function generateGoals(seed: number, products: readonly ShopProduct[], mode: GoalMode): Goal[] {
  const rng = new Rng(seed).fork(`webshop/goals/${mode}`);
  const goals: Goal[] = [];
  for (const p of products) {
    const attrs = rng.shuffle([...p.attributes]);
    const instructionAttrs = attrs.slice(0, rng.int(1, Math.min(3, attrs.length) + 1));
    const { priceUpper, text: priceText } = priceBound(rng, p.price);
    const base = { asin: p.asin, name: p.title, query: p.query, category: p.category, priceUpper };
    const names = Object.keys(p.options).sort();
    if (mode === 'synthetic') {
      const text = syntheticBase(rng, p, instructionAttrs);
      for (const combo of combinations(p.options, names)) {
        const optionText = names.map((n, i) => `${n}: ${combo[i]}`).join(', and ');
        goals.push({
          ...base,
          attributes: instructionAttrs,
          goalOptions: combo,
          instruction: `${text}${optionText ? ` with ${optionText}` : ''}${priceText}`,
        });
      }
    } else {
      // Several instructions per product (as WebShop's human set has), each with its own
      // attributes and one value for every option group.
      for (let k = 0; k < HUMAN_GOALS_PER_PRODUCT; k++) {
        const own =
          k === 0
            ? instructionAttrs
            : rng.shuffle([...attrs]).slice(0, rng.int(1, Math.min(3, attrs.length) + 1));
        const chosen = names.map((n) => [n, rng.choice(p.options[n] ?? [])] as [string, string]);
        goals.push({
          ...base,
          attributes: own,
          goalOptions: chosen.map(([, v]) => v),
          instruction: `${humanText(rng, p, own, chosen)}${priceText}`,
        });
      }
    }
  }
  return new Rng(seed).fork('webshop/goals/shuffle-233').shuffle(goals);
}

/** The goal indices [start, end) of a split among `n` goals. */
export function splitRange(split: Split, n: number): [number, number] {
  if (split === 'test') return [0, Math.min(TEST_SIZE, n)];
  if (split === 'eval') return [Math.min(TEST_SIZE, n), Math.min(TEST_SIZE + EVAL_SIZE, n)];
  return [Math.min(TEST_SIZE + EVAL_SIZE, n), n];
}

/**
 * RAGEN's seed → goal index: test seed % 500, eval seed % 1000 + 500, train
 * seed % (N − 1500) + 1500, each through a fixed permutation of the split (Random(42)).
 */
export function goalIndexForSeed(
  split: Split,
  seed: number,
  n: number,
  perms: Map<string, number[]>,
): number {
  const [start, end] = splitRange(split, n);
  if (end <= start) throw new Error(`webshop: the ${split} split is empty (${n} goals)`);
  let perm = perms.get(split);
  if (!perm) {
    perm = new Rng(42).fork(split).shuffle(Array.from({ length: end - start }, (_, i) => i));
    perms.set(split, perm);
  }
  return start + (perm[(seed >>> 0) % perm.length] as number);
}
