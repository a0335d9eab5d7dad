// get_reward's parts on hand-computed cases (the contract's golden examples run in
// cli/commands/webshop-contract.test.ts).
import { describe, expect, it } from 'vitest';
import { attributeMatches, getReward, optionMatches, titleTypeTokens, typeReward } from './reward.js';
import { Bm25Index } from './search.js';
import type { Goal, Product } from './types.js';

const product: Product = {
  asin: 'B000000001',
  title: 'Red Apple Juice, 12 Pack',
  description: 'Pressed from orchard apples. No sugar added.',
  bulletPoints: ['Kosher', 'Family Size bottles'],
  category: 'grocery › beverages › juice',
  query: 'apple juice',
  attributes: ['no sugar added', 'kosher certified'],
  options: { color: ['navy blue', 'red'], size: ['12 pack', '24 pack'] },
  price: 19.5,
};

function goal(over: Partial<Goal>): Goal {
  return {
    asin: 'X',
    name: 'Red Apple Juice',
    query: 'apple juice',
    category: 'grocery › beverages › juice',
    attributes: [],
    goalOptions: [],
    priceUpper: 20,
    instruction: '',
    ...over,
  };
}

describe('type reward', () => {
  const other = { query: 'pie', category: 'bakery › pies' };
  it('uses title tokens minus stopwords as the nouns', () => {
    expect(titleTypeTokens('The Apple of my Eye, 2 Pack')).toEqual(['apple', 'my', 'eye', 'pack']);
  });
  it('a query or category match gives 1 unless the title score is tiny or zero', () => {
    expect(typeReward(product, goal({ name: 'unrelated words entirely' }))).toBe(0.0);
    expect(typeReward(product, goal({ name: 'apple pie filling cinnamon spice' }))).toBe(1);
  });
  it('falls to 0.5, 0.1 and 0 with the title score', () => {
    // D = apple pie filling cinnamon spice: 1 of 5 shared = 0.2, not > 0.2 → 0.5
    expect(typeReward(product, goal({ ...other, name: 'apple pie filling cinnamon spice' }))).toBe(0.5);
    // 2 of 5 → 0.4 > 0.2 → 1
    expect(typeReward(product, goal({ ...other, name: 'apple juice filling cinnamon spice' }))).toBe(1);
    // 1 of 11 → 0.0909 < 0.1 → 0.1
    expect(typeReward(product, goal({ ...other, name: 'apple b c d e f g h i j k' }))).toBe(0.1);
    // 0 shared → 0; empty title → 0.2 → 0.5
    expect(typeReward(product, goal({ ...other, name: 'pear cider' }))).toBe(0);
    expect(typeReward(product, goal({ ...other, name: '12 of 24' }))).toBe(0.5);
  });
});

describe('attributes and options', () => {
  it('matches attributes fuzzily, then as substrings of the texts', () => {
    const g = goal({
      attributes: ['no sugar added', 'kosher', 'family size', 'orchard apples', 'gluten free'],
    });
    // "kosher" ⊂ tokens of "kosher certified" → 100; "family size" in the bullets (lowercased);
    // "orchard apples" in the description; "gluten free" nowhere.
    expect(attributeMatches(product, g)).toBe(4);
  });

  it('counts the goal options some chosen value matches, fuzzily for every option name', () => {
    // navy blue → blue, so both goal options are hit.
    expect(optionMatches(['blue', '24 pack'], { color: 'navy blue', size: '24 pack' })).toBe(2);
    // "24 pack" vs "24 packs": r("24 pack", "24 packs") = 14/15 → 93 > 85, size included.
    expect(optionMatches(['24 packs'], { size: '24 pack' })).toBe(1);
    // "12 pack" vs "24 pack": "pack 12"/"pack 24" share "pack " + "2" → 12/14 → 86 > 85 (goal.py's quirk).
    expect(optionMatches(['24 pack'], { size: '12 pack' })).toBe(1);
    // "16 oz" vs "8 oz": "oz 16"/"oz 8" share "oz " → 6/9 → 67.
    expect(optionMatches(['8 oz'], { size: '16 oz' })).toBe(0);
  });

  it('counts no option match when the goal has no options, whatever was chosen', () => {
    // "12 pack" is in the title; goal.py never looks at texts for options.
    expect(optionMatches([], { size: '12 pack', color: 'red' })).toBe(0);
    const g = goal({ attributes: ['kosher', 'gluten free'], goalOptions: [] });
    // type 1 × (1 attribute + price 1) / (2 attributes + 0 options + 1) = 2/3, not (1+1+1)/3.
    expect(getReward(product, g, product.price, { size: '12 pack' })).toEqual({
      reward: 2 / 3,
      rType: 1,
      numAttr: 1,
      numOpt: 0,
      rPrice: 1,
    });
  });

  it("processes option strings as thefuzz does: 'x-small' is the words x, small", () => {
    // "x small" ⊇ "small" → 100, though the option is a size.
    expect(optionMatches(['small'], { size: 'x-small' })).toBe(1);
    expect(optionMatches(['X-Small'], { size: 'x small' })).toBe(1);
    // One chosen value can hit two goal options; two chosen values hit one option once.
    expect(optionMatches(['x-small', 'small'], { size: 'x-small' })).toBe(2);
    expect(optionMatches(['small'], { size: 'small', fit: 'x-small' })).toBe(1);
  });

  it('combines the terms as goal.py does', () => {
    const g = goal({ attributes: ['kosher', 'gluten free'], goalOptions: ['red'], priceUpper: 19 });
    // type 1 × (1 attribute + 1 option + price 0) / (2 + 1 + 1)
    expect(getReward(product, g, product.price, { color: 'red' })).toEqual({
      reward: 0.5,
      rType: 1,
      numAttr: 1,
      numOpt: 1,
      rPrice: 0,
    });
  });
});

describe('BM25', () => {
  it('ignores stopwords and keeps catalogue order on ties', () => {
    const twin = { ...product, asin: 'B2' };
    const index = new Bm25Index([product, twin, { ...product, asin: 'B3', title: 'Pear Cider' }]);
    expect(index.search('the of and')).toEqual([]);
    expect(index.search('red apple juice', 50)).toEqual([0, 1, 2]); // the cider matches "red" in its option text
    expect(index.search('red apple juice', 1)).toEqual([0]);
  });
});
