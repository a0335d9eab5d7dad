// WebShop-lite as a TextEnv (envs/types.ts): WebShop's pages, actions and reward over the
// synthetic catalogue, with RAGEN's action budget (9 by default) and seed → goal mapping.
//
// Observation (agent form, the default): the page text without the instruction (the prompt
// carries it once; results list the first `resultsShown` products as "ASIN title price"), then
// "available actions: …". No count of actions left: the prompt prints the trajectory's own
// (core/prompt.ts), and the env's budget only truncates the episode. Example (item page):
//   Coconut Shampoo by Clairly - Sulfate Free [SEP] Price: $24.5 [SEP] size: [8 fl oz] | 16 fl oz
//   available actions: click[back to search], click[< prev], click[description], …, click[16 fl oz]
// The upstream `text` form (' [SEP] '-joined page texts, instruction included) is
// `observation: 'sep'`.
// Actions: search[<query>] on the search page; click[<clickable>] (see pages.ts). Arguments
// are lowercased. Anything else is an invalid no-op that still costs one action.
// Reward: get_reward on buy (reward.ts), 0 otherwise. Success: reward = 1.
// Termination: buy now, or the budget spent (truncation, reward 0).
import { Rng } from '../../core/rng.js';
import { actionText, endedStep } from '../common.js';
import type { StepResult, TextEnv } from '../types.js';
import { type GoalMode, goalIndexForSeed, type Split } from './goals.js';
import { type PageType, PRODUCT_WINDOW, ShopSession } from './pages.js';
import { getShop, type Shop } from './shop.js';
import type { Goal } from './types.js';

/** RAGEN's max_actions_per_traj. */
export const DEFAULT_BUDGET = 9;

/** How a WebShop-lite instance is set up. */
export interface WebShopOptions {
  id?: string;
  /** Catalogue seed (default 0): the same seed gives the same products and goals. */
  catalogueSeed?: number;
  /** Products in the catalogue (default 1000). */
  catalogueSize?: number;
  /** Which goals reset(seed) draws from (default 'train'). */
  split?: Split;
  /** Synthetic instructions (RAGEN's default) or human-style ones. */
  goalMode?: GoalMode;
  /** Actions per episode (default 9). */
  budget?: number;
  /** 'agent' (compact, default) or 'sep' (upstream text mode). */
  observation?: 'agent' | 'sep';
  /** Allow search[...] from every page, as upstream's raw env does (default false, as RAGEN). */
  searchAnywhere?: boolean;
  /**
   * Results the agent form lists per page (1–10, default 3, as ReAct shows), to keep a tiny
   * model's context short; the scripted shopper's first pick is among the top 3 in ~90% of
   * episodes. The other products of the page stay clickable and in view().
   */
  resultsShown?: number;
  /**
   * Relabelings of the catalogue an episode is drawn from (default 1: the real ids only). With
   * k > 1 each reset(seed) picks one of k fixed id permutations (the first is the real one) from
   * the seed: the same products, pages and goals, where an id cannot be recalled from the
   * instruction, only read off the results page (pretraining demonstrations).
   */
  relabelings?: number;
}

/** Plain JSON for a UI to draw the current shop page. */
export interface WebShopView {
  page: PageType;
  instruction: string;
  /** The current search query, or null before searching. */
  query: string | null;
  results: {
    page: number;
    total: number;
    /** The page's products (up to 10); the agent form lists the first `shown`. */
    products: { asin: string; title: string; priceTag: string }[];
    shown: number;
  } | null;
  item: {
    asin: string;
    title: string;
    priceTag: string;
    rating: string;
    options: { name: string; values: string[] }[];
    description: string;
    bulletPoints: string[];
  } | null;
  /** Selected option per group. */
  selected: Record<string, string>;
  /** Lowercased clickables of the page (click[x] is valid for each x except "search"). */
  clickables: string[];
  /** Asins opened so far. */
  visited: string[];
  actionsLeft: number;
  budget: number;
  done: boolean;
  /** Reward and its parts once bought. */
  reward: { reward: number; rType: number; numAttr: number; numOpt: number; rPrice: number } | null;
}

function compactPage(s: ShopSession, shown: number): string {
  const p = s.product;
  switch (s.page) {
    case 'search':
      return 'WebShop [SEP] Search';
    case 'results': {
      const items = s
        .pageProducts()
        .slice(0, shown)
        .map((x) => `${x.asin} ${x.title} ${x.priceTag}`);
      return [`Page ${s.pageNum} (Total results: ${s.results.length})`, ...items].join(' [SEP] ');
    }
    case 'item': {
      if (!p) return '';
      const groups = Object.entries(p.options).map(
        ([name, values]) =>
          `${name}: ${values.map((v) => (s.options[name] === v ? `[${v}]` : v)).join(' | ')}`,
      );
      return [p.title, `Price: ${p.priceTag}`, ...groups].join(' [SEP] ');
    }
    case 'description':
      return `Description: ${p?.description ?? ''}`;
    case 'features':
      return `Features: ${(p?.bulletPoints ?? []).join(' [SEP] ')}`;
    case 'reviews':
      return 'Reviews: none';
    case 'done':
      return `Thank you for shopping with us! Your score (min 0.0, max 1.0): ${s.reward?.reward ?? 0}`;
  }
}

/** The WebShop-lite environment. */
export class WebShopEnv implements TextEnv<WebShopView> {
  readonly id: string;
  readonly budget: number;
  private shop: Shop;
  private readonly catalogueSeed: number;
  private readonly catalogueSize: number | undefined;
  private readonly relabelings: number;
  private readonly split: Split;
  private readonly goalMode: GoalMode;
  private readonly mode: 'agent' | 'sep';
  private readonly searchAnywhere: boolean;
  private readonly resultsShown: number;
  private session: ShopSession;
  private actionsLeft: number;
  private finished = false;
  /** reset(seed) has begun an episode (the session made in the constructor only serves view()). */
  private started = false;

  constructor(options: WebShopOptions = {}) {
    this.id = options.id ?? 'webshop/lite';
    this.budget = options.budget ?? DEFAULT_BUDGET;
    if (!Number.isInteger(this.budget) || this.budget < 1)
      throw new Error('webshop: budget must be an integer ≥ 1');
    this.catalogueSeed = options.catalogueSeed ?? 0;
    this.catalogueSize = options.catalogueSize;
    this.relabelings = options.relabelings ?? 1;
    if (!Number.isInteger(this.relabelings) || this.relabelings < 1)
      throw new Error('webshop: relabelings must be an integer ≥ 1');
    this.shop = getShop(this.catalogueSeed, this.catalogueSize);
    this.split = options.split ?? 'train';
    this.goalMode = options.goalMode ?? 'synthetic';
    this.mode = options.observation ?? 'agent';
    this.searchAnywhere = options.searchAnywhere ?? false;
    this.resultsShown = options.resultsShown ?? 3;
    if (!Number.isInteger(this.resultsShown) || this.resultsShown < 1 || this.resultsShown > PRODUCT_WINDOW) {
      throw new Error(`webshop: resultsShown must be an integer in 1..${PRODUCT_WINDOW}`);
    }
    this.session = this.newSession(0);
    this.actionsLeft = this.budget;
  }

  private newSession(seed: number): ShopSession {
    if (this.relabelings > 1) {
      // The episode's relabelling from its seed (0: the real ids), independent of its goal.
      const k = new Rng(seed).fork('webshop/relabelling').int(0, this.relabelings);
      this.shop = getShop(this.catalogueSeed, this.catalogueSize, k);
    }
    const goals = this.shop.goals(this.goalMode);
    const index = goalIndexForSeed(this.split, seed, goals.length, this.shop.perms(this.goalMode));
    return new ShopSession(this.shop, goals[index] as Goal, this.searchAnywhere);
  }

  reset(seed: number): string {
    this.session = this.newSession(seed);
    this.actionsLeft = this.budget;
    this.finished = false;
    this.started = true;
    return this.observation();
  }

  step(action: string): StepResult {
    // The shared guard's first half (envs/common.ts): a step before reset(seed) is an error.
    if (!this.started) throw new Error(`${this.id}: call reset(seed) before step()`);
    // The shared ended reply, but its success stays the bought item's, as WebShop's own reward
    // after the end does.
    if (this.finished) return { ...endedStep(this.observation()), info: this.info(false, false) };
    const before = this.session.stateKey();
    const text = actionText(action);
    const valid = text !== '' && this.session.step(text.trim());
    const effective = valid && this.session.stateKey() !== before;
    this.actionsLeft--;
    const bought = this.session.page === 'done';
    const reward = bought ? (this.session.reward?.reward ?? 0) : 0;
    this.finished = bought || this.actionsLeft <= 0;
    return {
      observation: this.observation(),
      reward,
      done: this.finished,
      info: this.info(valid, effective),
    };
  }

  private info(valid: boolean, effective: boolean) {
    return { success: this.session.reward?.reward === 1, actionIsValid: valid, actionIsEffective: effective };
  }

  instruction(): string {
    return this.session.goal.instruction;
  }

  /** The goal of the episode (for analysis and tests; agents and experts never read it). */
  currentGoal(): Goal {
    return this.session.goal;
  }

  /** Valid actions in text form; null on the search page, where the query is free text. */
  validActions(): string[] | null {
    if (this.finished) return [];
    const clicks = [...this.session.clickables().keys()]
      .filter((k) => k !== 'search')
      .map((k) => `click[${k}]`);
    return this.session.page === 'search' ? null : clicks;
  }

  /** The upstream `[SEP]` text of the current page (instruction included). */
  sepText(): string {
    return this.session.sepText();
  }

  private observation(): string {
    if (this.mode === 'sep') return this.session.sepText();
    const hidden = new Set(
      this.session
        .pageProducts()
        .slice(this.resultsShown)
        .map((p) => `click[${p.asin.toLowerCase()}]`),
    );
    const actions = this.finished ? [] : (this.validActions() ?? []).filter((a) => !hidden.has(a));
    if (!this.finished && this.session.canSearch()) actions.unshift('search[<content>]');
    const lines = [compactPage(this.session, this.resultsShown)];
    if (!this.finished) lines.push(`available actions: ${actions.join(', ')}`);
    return lines.join('\n');
  }

  view(): WebShopView {
    const s = this.session;
    const p = s.product;
    return {
      page: s.page,
      instruction: s.goal.instruction,
      query: s.keywords ? s.keywords.join(' ') : null,
      results:
        s.page === 'results'
          ? {
              page: s.pageNum,
              total: s.results.length,
              products: s.pageProducts().map((x) => ({ asin: x.asin, title: x.title, priceTag: x.priceTag })),
              shown: Math.min(this.resultsShown, s.pageProducts().length),
            }
          : null,
      item:
        p && s.page !== 'done'
          ? {
              asin: p.asin,
              title: p.title,
              priceTag: p.priceTag,
              rating: 'N.A.',
              options: Object.entries(p.options).map(([name, values]) => ({ name, values: [...values] })),
              description: p.description,
              bulletPoints: [...p.bulletPoints],
            }
          : null,
      selected: { ...s.options },
      clickables: [...s.clickables().keys()],
      visited: [...s.visited],
      actionsLeft: this.actionsLeft,
      budget: this.budget,
      done: this.finished,
      reward: s.reward ? { ...s.reward } : null,
    };
  }
}
