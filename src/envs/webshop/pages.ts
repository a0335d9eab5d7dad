// The shop's pages and transitions, after WebShop's text environment
// (web_agent_site/envs/web_agent_text_env.py: SimServer.receive, get_available_actions) and its
// templates rendered in `text` mode (' [SEP] '-joined visible texts). State: keywords, page,
// asin, options. Transitions:
//   search page   search[q]          → results page 1 (options reset)
//   results       click[next >]      → next page (only while more results exist)
//   results       click[< prev]      → previous page (shown from page 2 on)
//   results       click[<asin>]      → item page
//   item          click[<option>]    → same page, options[group] = value (overwrites)
//   item          click[description|features|reviews] → sub-page; its click[< prev] → item
//   item          click[< prev]      → the results page it came from (options reset)
//   any but search click[back to search] → search page (session reset)
//   item          click[buy now]     → done, reward computed
// A click must name a current clickable (lowercased button text, lowercased asin or an option
// value); `click[search]` is never allowed. Anything else is an invalid no-op.
import { pyFloat } from './catalogue.js';
import { getReward, type RewardBreakdown } from './reward.js';
import type { Shop } from './shop.js';
import type { Goal, ShopProduct } from './types.js';

/** Products per results page (upstream PRODUCT_WINDOW). */
export const PRODUCT_WINDOW = 10;

export type PageType = 'search' | 'results' | 'item' | 'description' | 'features' | 'reviews' | 'done';

type Clickable =
  | { kind: 'button'; text: string }
  | { kind: 'product'; asin: string }
  | { kind: 'option'; name: string; value: string };

const SUB_PAGES: Record<string, PageType> = {
  description: 'description',
  features: 'features',
  reviews: 'reviews',
};

/** upstream parse_action: `name[arg]` (regex `(.+)\[(.+)\]` matched at the start), else no arg. */
export function parseAction(action: string): { name: string; arg: string | null } {
  const m = /^(.+)\[(.+)\]/.exec(action);
  if (!m) return { name: action, arg: null };
  return { name: m[1] as string, arg: m[2] as string };
}

/** One shopping session over a shop, for one goal. Mutable; `step` applies an action. */
export class ShopSession {
  page: PageType = 'search';
  keywords: string[] | null = null;
  results: readonly ShopProduct[] = [];
  pageNum = 1;
  asin: string | null = null;
  options: Record<string, string> = {};
  /** Products opened in this session (upstream session['asins']). */
  readonly visited = new Set<string>();
  reward: RewardBreakdown | null = null;

  constructor(
    readonly shop: Shop,
    readonly goal: Goal,
    /** Allow search[...] on every page (upstream's raw env) rather than only the search page. */
    readonly searchAnywhere = false,
  ) {}

  get product(): ShopProduct | null {
    return this.asin ? (this.shop.byAsin.get(this.asin) ?? null) : null;
  }

  /** The products shown on the current results page. */
  pageProducts(): readonly ShopProduct[] {
    return this.results.slice((this.pageNum - 1) * PRODUCT_WINDOW, this.pageNum * PRODUCT_WINDOW);
  }

  /** Clickables of the current page, keyed by their lowercased text, in page order. */
  clickables(): Map<string, Clickable> {
    const map = new Map<string, Clickable>();
    const button = (text: string) => map.set(text.toLowerCase(), { kind: 'button', text });
    switch (this.page) {
      case 'search':
        button('Search');
        break;
      case 'results':
        button('Back to Search');
        if (this.pageNum > 1) button('< Prev');
        if (this.pageNum * PRODUCT_WINDOW < this.results.length) button('Next >');
        for (const p of this.pageProducts()) map.set(p.asin.toLowerCase(), { kind: 'product', asin: p.asin });
        break;
      case 'item': {
        for (const b of ['Back to Search', '< Prev', 'Description', 'Features', 'Reviews', 'Buy Now'])
          button(b);
        const options = this.product?.options ?? {};
        for (const [name, values] of Object.entries(options)) {
          for (const value of values) map.set(value, { kind: 'option', name, value });
        }
        break;
      }
      case 'description':
      case 'features':
      case 'reviews':
        button('Back to Search');
        button('< Prev');
        break;
      case 'done':
        break;
    }
    return map;
  }

  /** Whether `search[...]` is allowed on the current page. */
  canSearch(): boolean {
    return this.page === 'search' || (this.searchAnywhere && this.page !== 'done');
  }

  /**
   * Applies one action (already trimmed). Returns whether it was valid; an invalid action
   * changes nothing. Buying sets `reward` and moves to the done page.
   */
  step(action: string): boolean {
    if (this.page === 'done') return false;
    const { name, arg: raw } = parseAction(action);
    const arg = raw?.toLowerCase() ?? null;
    if (name === 'search' && arg !== null && arg !== '' && this.canSearch()) {
      this.keywords = arg.split(' ');
      this.results = this.shop.search(this.keywords.join(' '));
      this.showResults(1);
      return true;
    }
    if (name !== 'click' || arg === null || arg === 'search') return false;
    const target = this.clickables().get(arg);
    if (!target) return false;
    if (target.kind === 'product') {
      this.asin = target.asin;
      this.visited.add(target.asin);
      this.page = 'item';
    } else if (target.kind === 'option') {
      this.options[target.name] = target.value;
    } else if (arg === 'back to search') {
      this.page = 'search';
      this.keywords = null;
      this.results = [];
      this.pageNum = 1;
      this.asin = null;
      this.options = {};
    } else if (arg === 'next >') {
      this.showResults(this.pageNum + 1);
    } else if (arg === '< prev') {
      if (this.page === 'results') this.showResults(this.pageNum - 1);
      else if (this.page === 'item') this.showResults(this.pageNum);
      else this.page = 'item';
    } else if (arg in SUB_PAGES) {
      this.page = SUB_PAGES[arg] as PageType;
    } else if (arg === 'buy now') {
      const product = this.product as ShopProduct;
      this.reward = getReward(product, this.goal, product.price, this.options);
      this.page = 'done';
    }
    return true;
  }

  private showResults(pageNum: number): void {
    this.page = 'results';
    this.pageNum = pageNum;
    this.asin = null;
    this.options = {};
  }

  /** The upstream `text` observation: visible texts joined by " [SEP] ". */
  sepText(): string {
    const head = ['Instruction:', this.goal.instruction];
    const parts: string[] = [];
    const product = this.product;
    switch (this.page) {
      case 'search':
        parts.push('WebShop', ...head, 'Search');
        break;
      case 'results':
        parts.push(...head, 'Back to Search', `Page ${this.pageNum} (Total results: ${this.results.length})`);
        if (this.pageNum > 1) parts.push('< Prev');
        if (this.pageNum * PRODUCT_WINDOW < this.results.length) parts.push('Next >');
        for (const p of this.pageProducts()) parts.push(p.asin, p.title, p.priceTag);
        break;
      case 'item': {
        const p = product as ShopProduct;
        parts.push(...head, 'Back to Search', '< Prev');
        for (const [name, values] of Object.entries(p.options)) parts.push(name, ...values);
        parts.push(
          p.title,
          `Price: ${p.priceTag}`,
          'Rating: N.A.',
          'Description',
          'Features',
          'Reviews',
          'Buy Now',
        );
        break;
      }
      case 'description':
        parts.push(...head, 'Back to Search', '< Prev', (product as ShopProduct).description);
        break;
      case 'features':
        parts.push(...head, 'Back to Search', '< Prev', ...(product as ShopProduct).bulletPoints);
        break;
      case 'reviews':
        parts.push(...head, 'Back to Search', '< Prev');
        break;
      case 'done':
        parts.push(
          'Thank you for shopping with us!',
          'Your score (min 0.0, max 1.0)',
          pyFloat(this.reward?.reward ?? 0),
        );
        break;
    }
    return parts.filter((t) => t.trim() !== '').join(' [SEP] ');
  }

  /** A key that changes exactly when the visible state changes (for actionIsEffective). */
  stateKey(): string {
    return JSON.stringify([this.page, this.keywords, this.pageNum, this.asin, this.options]);
  }
}
