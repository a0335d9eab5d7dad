// One built shop per catalogue seed: products, the BM25 index and the goals, cached so that
// every environment instance with the same seed shares them (building takes tens of ms).
import { Rng } from '../../core/rng.js';
import { generateCatalogue } from './catalogue.js';
import { type GoalMode, generateGoals } from './goals.js';
import { Bm25Index } from './search.js';
import type { Goal, ShopProduct } from './types.js';

/** A catalogue with its search index and goal lists. Treat as read-only. */
export interface Shop {
  seed: number;
  products: readonly ShopProduct[];
  byAsin: ReadonlyMap<string, ShopProduct>;
  index: Bm25Index;
  /** Goals per mode, built on first use. */
  goals(mode: GoalMode): readonly Goal[];
  /** Fixed permutations of each split, per mode (see goalIndexForSeed). */
  perms(mode: GoalMode): Map<string, number[]>;
  /** The products of a search, best first (at most 50). */
  search(query: string): readonly ShopProduct[];
}

const cache = new Map<string, Shop>();

/**
 * The shop for catalogue `seed` (and size), built once and cached. `relabel` k > 0 gives the
 * same products, goals and search with the product ids shuffled among the products (a fixed
 * permutation per k): a shop where an instruction says nothing about the id of the product it
 * asks for, so demonstrations drawn from several relabelings teach reading ids off the page.
 */
export function getShop(seed: number, size?: number, relabel = 0): Shop {
  const key = `${seed >>> 0}/${size ?? 'default'}/${relabel}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const products = relabelled(generateCatalogue(seed, size), seed, relabel);
  // Search reads no ids and the products keep their order, so a relabelling shares the index.
  const index = relabel === 0 ? new Bm25Index(products) : getShop(seed, size).index;
  const goalCache = new Map<GoalMode, Goal[]>();
  const permCache = new Map<GoalMode, Map<string, number[]>>();
  const shop: Shop = {
    seed: seed >>> 0,
    products,
    byAsin: new Map(products.map((p) => [p.asin, p])),
    index,
    goals(mode) {
      let goals = goalCache.get(mode);
      if (!goals) {
        goals = generateGoals(seed, products, mode);
        goalCache.set(mode, goals);
      }
      return goals;
    },
    perms(mode) {
      let perms = permCache.get(mode);
      if (!perms) {
        perms = new Map();
        permCache.set(mode, perms);
      }
      return perms;
    },
    search(query) {
      return index.search(query).map((i) => products[i] as ShopProduct);
    },
  };
  cache.set(key, shop);
  return shop;
}

/** `products` with their ids permuted by relabelling k of catalogue `seed` (k = 0: unchanged). */
function relabelled(products: ShopProduct[], seed: number, k: number): ShopProduct[] {
  if (k === 0) return products;
  const ids = new Rng(seed).fork(`webshop/relabel/${k}`).shuffle(products.map((p) => p.asin));
  return products.map((p, i) => ({ ...p, asin: ids[i] as string }));
}
