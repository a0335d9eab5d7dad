// The seeded catalogue and goals: determinism, shape, the price-bound rule and the splits.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { DEFAULT_CATALOGUE_SIZE, generateCatalogue, pyFloat } from './catalogue.js';
import { generateGoals, goalIndexForSeed, NO_PRICE_BOUND, priceBound, splitRange } from './goals.js';
import { getShop } from './shop.js';

describe('catalogue', () => {
  const products = getShop(0).products;

  it('is the same for the same seed and different for another', () => {
    expect(generateCatalogue(0)).toEqual(products);
    const other = generateCatalogue(1);
    expect(other.map((p) => p.asin)).not.toEqual(products.map((p) => p.asin));
    expect(getShop(0)).toBe(getShop(0)); // cached per seed
  });

  it('has about 1,000 products over five departments, unique asins, valid fields', () => {
    expect(products).toHaveLength(DEFAULT_CATALOGUE_SIZE);
    expect(new Set(products.map((p) => p.asin)).size).toBe(products.length);
    const byDept = new Map<string, number>();
    for (const p of products) byDept.set(p.department, (byDept.get(p.department) ?? 0) + 1);
    expect([...byDept.keys()].sort()).toEqual(['beauty', 'electronics', 'fashion', 'garden', 'grocery']);
    for (const n of byDept.values()) expect(n).toBe(200);
    for (const p of products) {
      expect(p.asin).toMatch(/^B0[0-9A-Z]{8}$/);
      expect(p.category.split(' › ').length).toBeGreaterThanOrEqual(3);
      expect(p.attributes.length).toBeGreaterThanOrEqual(2);
      for (const values of Object.values(p.options)) {
        expect(values.length).toBeGreaterThanOrEqual(2);
        for (const v of values) expect(v).toBe(v.toLowerCase());
      }
      // The purchase price lies in the listed price or range.
      const [lo, hi = lo] = [...p.priceTag.matchAll(/\$([\d.]+)/g)].map((m) => Number(m[1]));
      expect(p.price).toBeGreaterThanOrEqual(lo as number);
      expect(p.price).toBeLessThanOrEqual(hi as number);
    }
    const withoutOptions = products.filter((p) => Object.keys(p.options).length === 0).length;
    expect(withoutOptions / products.length).toBeGreaterThan(0.5); // upstream sample: 61%
    expect(new Set(products.map((p) => p.title)).size).toBeGreaterThan(900);
  });

  it('prints prices like Python floats', () => {
    expect([100, 12.5, 19.99].map(pyFloat)).toEqual(['100.0', '12.5', '19.99']);
  });
});

describe('goals', () => {
  const shop = getShop(0);
  const goals = shop.goals('synthetic');

  it('builds one synthetic goal per option combination, in the upstream text form', () => {
    const combos = shop.products.reduce(
      (n, p) => n + Object.values(p.options).reduce((m, vals) => m * vals.length, 1),
      0,
    );
    expect(goals).toHaveLength(combos);
    expect(goals).toEqual(generateGoals(0, shop.products, 'synthetic'));
    for (const g of goals) {
      const p = shop.byAsin.get(g.asin);
      expect(p).toBeDefined();
      const names = Object.keys(p?.options ?? {}).sort();
      expect(g.goalOptions).toHaveLength(names.length);
      const optionText = names.map((n, i) => `${n}: ${g.goalOptions[i]}`).join(', and ');
      const priceText =
        g.priceUpper === NO_PRICE_BOUND ? '' : `, and price lower than ${g.priceUpper.toFixed(2)} dollars`;
      expect(g.instruction.endsWith(`${optionText ? ` with ${optionText}` : ''}${priceText}`)).toBe(true);
      for (const a of g.attributes) expect(p?.attributes).toContain(a);
    }
  });

  it('makes human-style goals with one value per option group', () => {
    const human = shop.goals('human');
    expect(human).toHaveLength(3 * shop.products.length);
    for (const g of human.slice(0, 50)) {
      expect(g.instruction).not.toContain(': ');
      expect(g.goalOptions).toHaveLength(Object.keys(shop.byAsin.get(g.asin)?.options ?? {}).length);
    }
  });

  it('draws the price bound as upstream: the larger of two of the first four tens above the price', () => {
    const rng = new Rng(5);
    for (let i = 0; i < 200; i++) {
      const price = rng.float() * 1000;
      const { priceUpper, text } = priceBound(rng, price);
      const cands = [10, 20, 30, 40]
        .map((d) => Math.floor(price / 10) * 10 + d)
        .filter((c) => c > price && c < 1000);
      if (cands.length < 2) {
        expect(priceUpper).toBe(NO_PRICE_BOUND);
        expect(text).toBe('');
      } else {
        expect(cands.slice(1)).toContain(priceUpper); // never the smallest of the two drawn
        expect(text).toBe(`, and price lower than ${priceUpper.toFixed(2)} dollars`);
      }
    }
  });

  it('maps seeds onto fixed split ranges, as RAGEN', () => {
    const n = goals.length;
    expect(splitRange('test', n)).toEqual([0, 500]);
    expect(splitRange('eval', n)).toEqual([500, 1500]);
    expect(splitRange('train', n)).toEqual([1500, n]);
    const perms = new Map<string, number[]>();
    const test = Array.from({ length: 500 }, (_, s) => goalIndexForSeed('test', s, n, perms));
    expect([...test].sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(goalIndexForSeed('test', 500 + 17, n, perms)).toBe(test[17]);
    const evalIdx = goalIndexForSeed('eval', 123, n, perms);
    expect(evalIdx).toBeGreaterThanOrEqual(500);
    expect(evalIdx).toBeLessThan(1500);
    expect(goalIndexForSeed('train', 4_000_000_000, n, perms)).toBeGreaterThanOrEqual(1500);
  });
});
