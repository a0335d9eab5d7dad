// Scripted WebShop-lite shoppers. They read the instruction and the current page (env.view()),
// never the hidden goal.
// - ruleBaseline: WebShop's rule baseline: search the instruction, click the first result, buy.
// - webshopExpert: a stronger shopper: searches the instruction's product words, opens the top
//   listed result it has not opened yet, goes back for the next one if its price, options or
//   title do not fit (while the budget allows), selects the options the instruction names, and
//   buys before the budget runs out. Opening the top fresh result rather than the best title
//   match among those listed succeeds as often (0.773 vs 0.767 on 300 eval goals; BM25 has
//   already ranked them) and is a choice by position, which a small model can imitate.
//   Which results it has opened is its own memory (view().visited): no page shows it.
// - pageShopper: the same shopper without that memory, so every decision is a function of what
//   the agent's prompt shows (instruction and current page): it opens the top result, selects
//   the options asked for and buys, never going back (going back would return to the same page
//   and the same choice). Base models learn from it (the env spec's expert): a policy that sees
//   the current page alone (history 1) can imitate it exactly, where the going-back expert's
//   "open the top new result" after a return is unobservable and taught loops.
// Reasons are a few words each, so that a demonstrated turn (thinking, then the action with a
// 10-character id spelled in pieces) fits a 32-token turn.
import type { WebShopView } from './env.js';
import { searchTokens } from './search.js';
import { STOPWORDS } from './stopwords.js';

/** One expert decision: the next action text and a one-line reason (for demonstrations). */
export interface ExpertStep {
  action: string;
  reason: string;
}

/** What the experts need from an environment: the WebShop-lite TextEnv has both. */
export interface ShopReader {
  instruction(): string;
  view(): WebShopView;
}

/** Words of instruction phrasing that say nothing about the product. */
const FILLER = new Set(
  "i im i'm need want buy me find looking searching would like can you get show am please some".split(' '),
);
const PRICE = /,? and price lower than ([\d.]+) dollars/;

/** The price bound an instruction states, or Infinity. */
export function statedPriceBound(instruction: string): number {
  const m = PRICE.exec(instruction);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** The instruction without its price clause and its synthetic option clause ("with k: v, and …"). */
function productPart(instruction: string): string {
  return instruction.replace(PRICE, '').replace(/ with [a-z ]+: .*$/, '');
}

/**
 * What the shopper types: the product part of the instruction as written, from its first word
 * after the opener ("find me", "i need", …) up to the option clause and the price — one
 * contiguous span, so that a small model can copy it; BM25 reads it as the key terms.
 */
export function searchQuery(instruction: string): string {
  const words = productPart(instruction).split(' ');
  let start = 0;
  while (
    start < words.length - 1 &&
    (FILLER.has(words[start] as string) || STOPWORDS.has(words[start] as string))
  )
    start++;
  return words.slice(start).join(' ');
}

/** The search terms: the product part of the instruction minus stopwords and filler words. */
export function keyTerms(instruction: string): string[] {
  const out: string[] = [];
  for (const t of searchTokens(productPart(instruction))) if (!FILLER.has(t) && !out.includes(t)) out.push(t);
  return out;
}

/** Options the instruction asks for, per group of the item: the longest value it names. */
function wantedOptions(
  instruction: string,
  options: { name: string; values: string[] }[],
): Record<string, string> {
  const text = ` ${instruction.toLowerCase().replace(/[,.]/g, ' ')} `;
  const wanted: Record<string, string> = {};
  for (const { name, values } of options) {
    const explicit = values.find(
      (v) => text.includes(` ${name}: ${v} `) || text.includes(` ${name}: ${v}  `),
    );
    const named = [...values].sort((a, b) => b.length - a.length).find((v) => text.includes(` ${v} `));
    const pick = explicit ?? named;
    if (pick !== undefined) wanted[name] = pick;
  }
  return wanted;
}

/** Whether the synthetic option clause names a value the item lacks. */
function missesOption(instruction: string, options: { name: string; values: string[] }[]): boolean {
  const clause = / with ([a-z ]+: .*?)(,? and price lower than|$)/.exec(instruction)?.[1];
  if (!clause) return false;
  for (const pair of clause.split(', and ')) {
    const [name, value] = pair.split(': ') as [string, string | undefined];
    const group = options.find((o) => o.name === name);
    if (!group || (value !== undefined && !group.values.includes(value))) return true;
  }
  return false;
}

/** Lowest price in a tag "$X" or "$X to $Y". */
function lowPrice(tag: string): number {
  return Number(/\$([\d.]+)/.exec(tag)?.[1] ?? Number.NaN);
}

function titleMatch(title: string, terms: string[]): number {
  const words = new Set(searchTokens(title));
  return terms.length === 0 ? 0 : terms.filter((t) => words.has(t)).length / terms.length;
}

/** WebShop's rule baseline: search the whole instruction, open the first result, buy it. */
export function ruleBaseline(env: ShopReader): ExpertStep {
  const v = env.view();
  if (v.done) return { action: '', reason: 'the episode is over' };
  switch (v.page) {
    case 'search':
      return { action: `search[${env.instruction()}]`, reason: 'search the instruction as written' };
    case 'results': {
      const first = v.results?.products[0];
      if (first) return { action: `click[${first.asin.toLowerCase()}]`, reason: 'open the first result' };
      return { action: 'click[back to search]', reason: 'no results' };
    }
    case 'item':
      return { action: 'click[buy now]', reason: 'buy the first result' };
    default:
      return { action: 'click[< prev]', reason: 'return to the item page' };
  }
}

/**
 * The stronger scripted shopper: the next action for `env` and why. Generic over any
 * ShopReader, so it can drive demonstrations for pretraining. Returns action '' when done.
 */
export function webshopExpert(env: ShopReader, memory = true): ExpertStep {
  const v = env.view();
  const instruction = env.instruction();
  if (v.done) return { action: '', reason: 'the episode is over' };
  const bound = statedPriceBound(instruction);
  const terms = keyTerms(instruction);
  switch (v.page) {
    case 'search':
      return { action: `search[${searchQuery(instruction)}]`, reason: 'search the product words' };
    case 'results': {
      // Only what the agent form lists, so that demonstrations never click unseen products.
      const products = (v.results?.products ?? []).slice(0, v.results?.shown ?? 10);
      if (v.actionsLeft <= 2 && products[0]) {
        return {
          action: `click[${products[0].asin.toLowerCase()}]`,
          reason: 'few actions left: open the top result',
        };
      }
      const next = (memory ? products.find((p) => !v.visited.includes(p.asin)) : undefined) ?? products[0];
      if (!next) return { action: 'click[back to search]', reason: 'no results: search again' };
      const what = memory ? 'open the top new result' : 'open the top result';
      return { action: `click[${next.asin.toLowerCase()}]`, reason: what };
    }
    case 'item': {
      const item = v.item;
      if (!item) return { action: 'click[< prev]', reason: 'no item shown' };
      const wanted = wantedOptions(instruction, item.options);
      const toPick = Object.entries(wanted).filter(([name, value]) => v.selected[name] !== value);
      const tooExpensive = lowPrice(item.priceTag) > bound;
      const lacking = missesOption(instruction, item.options);
      const weak = titleMatch(item.title, terms) < 0.5;
      // Going back costs two actions (back, open another) before options and buying.
      const spare = v.actionsLeft - toPick.length - 1;
      if (memory && (tooExpensive || lacking || weak) && spare >= 3 && v.visited.length < 3) {
        const why = tooExpensive ? 'costs too much' : lacking ? 'lacks an option' : 'is a poor match';
        return { action: 'click[< prev]', reason: `it ${why}: go back` };
      }
      const next = toPick[0];
      if (next && v.actionsLeft > 1) {
        return { action: `click[${next[1]}]`, reason: `select the ${next[0]} asked for` };
      }
      return { action: 'click[buy now]', reason: memory ? 'it fits: buy it' : 'buy it' };
    }
    default:
      return { action: 'click[< prev]', reason: 'return to the item page' };
  }
}

/** webshopExpert without its memory of opened results: never goes back (see the header). */
export function pageShopper(env: ShopReader): ExpertStep {
  return webshopExpert(env, false);
}
