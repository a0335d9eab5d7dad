// WebShop-lite pages and transitions: a scripted walk through every page type and back,
// invalid actions, pagination bounds, option overwriting, buying only from the item page,
// the budget, the [SEP] text, and same seed ⇒ same trajectory.
import { describe, expect, it } from 'vitest';
import { envRegistry } from '../registry.js';
import { WebShopEnv } from './env.js';
import { pageShopper, webshopExpert } from './experts.js';
import { parseAction } from './pages.js';
import { getReward } from './reward.js';
import { getShop } from './shop.js';
import type { ShopProduct } from './types.js';

/** A query that matches the option text of 50+ products in the seed-0 catalogue: 5 full pages. */
const BROAD = 'color black white size medium large';

function walkEnv() {
  const env = new WebShopEnv({ split: 'test', budget: 100 });
  env.reset(7);
  return env;
}

describe('page transitions', () => {
  it('walks search → results → item → sub-pages → back, with invalid clicks as no-ops', () => {
    const env = walkEnv();
    expect(env.view().page).toBe('search');
    expect(env.validActions()).toBeNull();
    // click[search] is never allowed, and clicks need a current clickable.
    for (const bad of ['click[search]', 'click[buy now]', 'buy now', 'search[]', 'click[]']) {
      const r = env.step(bad);
      expect(r.info.actionIsValid).toBe(false);
      expect(env.view().page).toBe('search');
    }
    let r = env.step(`search[${BROAD.toUpperCase()}]`);
    expect(r.info).toMatchObject({ actionIsValid: true, actionIsEffective: true });
    let v = env.view();
    expect(v.page).toBe('results');
    expect(v.query).toBe(BROAD); // arguments are lowercased
    expect(v.results?.total).toBe(50);
    expect(v.results?.products).toHaveLength(10);
    expect(v.clickables.slice(0, 2)).toEqual(['back to search', 'next >']);
    // No "< prev" on page 1; no search from the results page; no buying from it.
    for (const bad of ['click[< prev]', 'search[soap]', 'click[buy now]', 'click[description]']) {
      expect(env.step(bad).info.actionIsValid).toBe(false);
    }
    // Pagination: 50 hits = 5 pages; "next >" disappears on the last page.
    for (let page = 2; page <= 5; page++) {
      expect(env.step('click[next >]').info.actionIsValid).toBe(true);
      expect(env.view().results?.page).toBe(page);
    }
    expect(env.view().clickables.slice(0, 2)).toEqual(['back to search', '< prev']);
    expect(env.step('click[next >]').info.actionIsValid).toBe(false);
    env.step('click[< prev]');
    expect(env.view().results?.page).toBe(4);
    // Open an item with options.
    const shop = getShop(0);
    const withOptions = (env.view().results?.products ?? [])
      .map((p) => shop.byAsin.get(p.asin) as ShopProduct)
      .find((p) => Object.values(p.options).some((vals) => vals.length >= 2));
    expect(withOptions).toBeDefined();
    const product = withOptions as ShopProduct;
    r = env.step(`click[${product.asin}]`); // upper case works: the argument is lowercased
    v = env.view();
    expect(v.page).toBe('item');
    expect(v.item?.asin).toBe(product.asin);
    expect(v.visited).toEqual([product.asin]);
    const [group, values] = Object.entries(product.options).find(([, vals]) => vals.length >= 2) as [
      string,
      string[],
    ];
    env.step(`click[${values[0]}]`);
    expect(env.view().selected[group]).toBe(values[0]);
    expect(r.observation).toContain(`${group}: `);
    // Clicking the same value again changes nothing; another value overwrites it.
    expect(env.step(`click[${values[0]}]`).info).toMatchObject({
      actionIsValid: true,
      actionIsEffective: false,
    });
    env.step(`click[${values[1]}]`);
    expect(env.view().selected).toEqual({ [group]: values[1] });
    expect(env.step('click[next >]').info.actionIsValid).toBe(false);
    // Sub-pages keep the options; their "< prev" returns to the item page.
    for (const sub of ['description', 'features', 'reviews'] as const) {
      env.step(`click[${sub}]`);
      v = env.view();
      expect(v.page).toBe(sub);
      expect(v.clickables).toEqual(['back to search', '< prev']);
      expect(env.step('click[buy now]').info.actionIsValid).toBe(false);
      env.step('click[< prev]');
      expect(env.view().page).toBe('item');
      expect(env.view().selected).toEqual({ [group]: values[1] });
    }
    env.step('click[description]');
    expect(env.step('click[description]').info.actionIsValid).toBe(false);
    env.step('click[< prev]');
    // "< prev" from the item returns to the same results page and resets the options.
    env.step('click[< prev]');
    v = env.view();
    expect(v.page).toBe('results');
    expect(v.results?.page).toBe(4);
    expect(v.selected).toEqual({});
    // Back to search resets the session.
    env.step('click[back to search]');
    v = env.view();
    expect(v).toMatchObject({ page: 'search', query: null, results: null, item: null });
    expect(v.visited).toEqual([product.asin]);
  });

  it('buys only from the item page and scores the purchase with get_reward', () => {
    const env = walkEnv();
    env.step('search[tea tree shampoo]');
    const first = env.view().results?.products[0];
    expect(first).toBeDefined();
    env.step(`click[${first?.asin.toLowerCase()}]`);
    const product = getShop(0).byAsin.get(first?.asin ?? '') as ShopProduct;
    const chosen: Record<string, string> = {};
    for (const [name, values] of Object.entries(product.options)) {
      env.step(`click[${values.at(-1)}]`);
      chosen[name] = values.at(-1) as string;
    }
    const r = env.step('click[buy now]');
    const want = getReward(product, env.currentGoal(), product.price, chosen);
    expect(r.done).toBe(true);
    expect(r.reward).toBe(want.reward);
    expect(r.info.success).toBe(want.reward === 1);
    expect(env.view()).toMatchObject({ page: 'done', done: true, reward: want });
    expect(env.sepText()).toMatch(
      /^Thank you for shopping with us! \[SEP\] Your score \(min 0\.0, max 1\.0\) \[SEP\] /,
    );
    // After the end every action is an invalid no-op.
    const after = env.step('click[back to search]');
    expect(after).toMatchObject({ done: true, reward: 0, info: { actionIsValid: false } });
    expect(env.validActions()).toEqual([]);
  });

  it('parses actions like upstream', () => {
    expect(parseAction('search[red shoes]')).toEqual({ name: 'search', arg: 'red shoes' });
    expect(parseAction('click[a[b]]')).toEqual({ name: 'click[a', arg: 'b]' });
    expect(parseAction('click[x] trailing')).toEqual({ name: 'click', arg: 'x' });
    expect(parseAction('click')).toEqual({ name: 'click', arg: null });
  });
});

describe('observations', () => {
  it('renders upstream [SEP] text', () => {
    const env = new WebShopEnv({ split: 'test', observation: 'sep' });
    const first = env.reset(3);
    const instr = env.instruction();
    expect(first).toBe(`WebShop [SEP] Instruction: [SEP] ${instr} [SEP] Search`);
    const r = env.step(`search[${BROAD}]`);
    expect(
      r.observation.startsWith(
        `Instruction: [SEP] ${instr} [SEP] Back to Search [SEP] Page 1 (Total results: 50) [SEP] Next > [SEP] `,
      ),
    ).toBe(true);
    const p = getShop(0).byAsin.get(env.view().results?.products[0]?.asin ?? '') as ShopProduct;
    const item = env.step(`click[${p.asin.toLowerCase()}]`).observation;
    const opts = Object.entries(p.options).flatMap(([n, vals]) => [n, ...vals]);
    expect(item).toBe(
      [
        'Instruction:',
        instr,
        'Back to Search',
        '< Prev',
        ...opts,
        p.title,
        `Price: ${p.priceTag}`,
        'Rating: N.A.',
        'Description',
        'Features',
        'Reviews',
        'Buy Now',
      ].join(' [SEP] '),
    );
    expect(env.step('click[features]').observation).toBe(
      ['Instruction:', instr, 'Back to Search', '< Prev', ...p.bulletPoints].join(' [SEP] '),
    );
  });

  it('shows the agent form with available actions and no count of its own', () => {
    const env = new WebShopEnv({ split: 'test' });
    const obs = env.reset(3);
    expect(obs).toBe('WebShop [SEP] Search\navailable actions: search[<content>]');
    const r = env.step('search[green tea]');
    const lines = r.observation.split('\n');
    expect(lines[0]).toMatch(/^Page 1 \(Total results: \d+\) \[SEP\] B0/);
    // Three of the page's ten products are listed (as ReAct shows); all ten stay valid clicks.
    const all = env.validActions() ?? [];
    expect(all.filter((a) => a.startsWith('click[b0'))).toHaveLength(10);
    expect(lines[0]?.split(' [SEP] ')).toHaveLength(4);
    expect(lines[1]).toBe(`available actions: ${all.slice(0, all.length - 7).join(', ')}`);
    expect(lines).toHaveLength(2);
    expect(r.observation).not.toContain('actions left');
    expect(r.observation).not.toContain(env.instruction());
  });

  it('ends the episode when the budget is spent, with reward 0', () => {
    const env = new WebShopEnv({ split: 'test', budget: 3 });
    env.reset(1);
    expect(env.step('nonsense').done).toBe(false);
    expect(env.step('click[nope]').done).toBe(false);
    const last = env.step('search[honey]');
    expect(last).toMatchObject({ done: true, reward: 0, info: { success: false, actionIsValid: true } });
  });

  it('gives plain JSON views', () => {
    const env = walkEnv();
    env.step('search[wireless earbuds]');
    env.step(`click[${env.view().results?.products[0]?.asin.toLowerCase()}]`);
    const view = env.view();
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(view.item?.rating).toBe('N.A.');
  });
});

describe('determinism and registry', () => {
  it('same seed ⇒ same instruction and text trajectory', () => {
    const run = () => {
      const env = new WebShopEnv({ split: 'eval' });
      const texts = [env.reset(12345), env.instruction()];
      for (;;) {
        const r = env.step(webshopExpert(env).action);
        texts.push(r.observation);
        if (r.done) return texts;
      }
    };
    const a = run();
    expect(run()).toEqual(a);
    const other = new WebShopEnv({ split: 'eval' });
    other.reset(12346);
    expect(other.instruction()).not.toBe(a[1]);
  });

  it('registers the webshop ids, each resetting and stepping', () => {
    const ids = [...envRegistry.keys()].filter((k) => k.startsWith('webshop/'));
    expect(ids).toContain('webshop/lite');
    for (const id of ids) {
      const spec = envRegistry.get(id);
      const env = spec?.make();
      expect(env?.id).toBe(id);
      expect(env?.reset(0)).toContain('search[<content>]');
      expect(env?.step('search[shoes]').info.actionIsValid).toBe(true);
    }
  });

  it('relabels product ids per episode: same goals and pages, ids permuted, real ids among them', () => {
    const real = getShop(0);
    const other = getShop(0, undefined, 3);
    expect(other.products.map((p) => p.title)).toEqual(real.products.map((p) => p.title));
    expect([...other.products.map((p) => p.asin)].sort()).toEqual(
      [...real.products.map((p) => p.asin)].sort(),
    );
    const moved = other.products.filter((p, i) => p.asin !== real.products[i]?.asin).length;
    expect(moved).toBeGreaterThan(990);
    // Goals name the relabelled product; search ranks the same products.
    const g = other.goals('synthetic')[7] as { asin: string; instruction: string };
    expect(g.instruction).toBe(real.goals('synthetic')[7]?.instruction);
    expect(other.byAsin.get(g.asin)?.title).toBe(
      real.byAsin.get(real.goals('synthetic')[7]?.asin ?? '')?.title,
    );
    expect(other.search('running shoes').map((p) => p.title)).toEqual(
      real.search('running shoes').map((p) => p.title),
    );

    // reset(seed) draws its relabelling from the seed: the same seed, the same ids; several
    // seeds reach the real ids and others; the expert still buys what the goal asks for.
    const env = new WebShopEnv({ relabelings: 8 });
    const plain = new WebShopEnv();
    let same = 0;
    for (let seed = 0; seed < 16; seed++) {
      env.reset(seed);
      plain.reset(seed);
      expect(env.instruction()).toBe(plain.instruction());
      env.step(`search[${env.instruction()}]`);
      plain.step(`search[${plain.instruction()}]`);
      const top = env.view().results?.products[0]?.asin as string;
      const plainTop = plain.view().results?.products[0];
      expect(env.view().results?.products[0]?.title).toBe(plainTop?.title);
      if (top === plainTop?.asin) same++;
      const again = new WebShopEnv({ relabelings: 8 });
      again.reset(seed);
      again.step(`search[${again.instruction()}]`);
      expect(again.view().results?.products[0]?.asin).toBe(top);
      // The page shopper, from the start, earns the same reward in both shops.
      const rewardOf = (e: WebShopEnv) => {
        e.reset(seed);
        for (;;) {
          const r = e.step(pageShopper(e).action);
          if (r.done) return r.reward;
        }
      };
      expect(rewardOf(env)).toBe(rewardOf(plain));
    }
    expect(same).toBeGreaterThan(0);
    expect(same).toBeLessThan(16);
    expect(envRegistry.get('webshop/lite-relabeled')?.heldOutId).toBe('webshop/lite-eval');
    expect(() => new WebShopEnv({ relabelings: 0 })).toThrow(/relabelings must be an integer ≥ 1/);
  });
});
