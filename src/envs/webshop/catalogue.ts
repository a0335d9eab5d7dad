// The seeded synthetic catalogue of WebShop-lite: about 1,000 products over five departments,
// drawn from the tables in catalogue-data.ts. Follows WebShop's product loading
// (web_agent_site/engine/engine.py: load_products, generate_product_prices): lowercase option
// values, a price tag "$X" or "$X to $Y", and a purchase price fixed at load time — the single
// price, or uniform(lo, hi) for a range. Products are shuffled, as upstream's items_shuffle.
import { Rng } from '../../core/rng.js';
import { type Department, OPTION_POOLS, type ProductType } from './catalogue-data.js';
import { DEPARTMENTS } from './departments.js';
import type { ShopProduct } from './types.js';

/** Default number of products, as WebShop's 1000-product subset. */
export const DEFAULT_CATALOGUE_SIZE = 1000;
/** Share of products that offer options (upstream's 1000-product sample: 39%). */
const OPTION_SHARE = 0.4;
/** Share of products listed with a price range. */
const RANGE_SHARE = 0.25;

const ASIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const GENERIC_LINES = [
  'Backed by a 30 day satisfaction guarantee.',
  'A thoughtful gift for family and friends.',
  'Designed and tested by our in-house team.',
  'Ships in recyclable packaging.',
  'Loved by thousands of customers every day.',
  'Simple to use right out of the box.',
];

/** Python's str(float): integers keep one decimal ("100.0"). */
export function pyFloat(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

function titleCase(s: string): string {
  return s.replace(/(^|[\s-])([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase());
}

function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  return rng.shuffle([...items]).slice(0, Math.min(n, items.length));
}

function makeTitle(
  rng: Rng,
  brand: string,
  variant: string,
  type: ProductType,
  attrs: string[],
  material: string,
) {
  const [a0 = '', a1 = ''] = attrs;
  const noun = titleCase(type.noun);
  const v = titleCase(variant);
  switch (rng.int(0, 5)) {
    case 0:
      return `${brand} ${v} ${noun}, ${titleCase(a0)}, ${titleCase(a1)}`;
    case 1:
      return `${v} ${noun} by ${brand} - ${titleCase(a0)}`;
    case 2:
      return `${brand} ${titleCase(a0)} ${v} ${noun} with ${titleCase(material)}`;
    case 3:
      return `${brand} ${noun}, ${v}, ${titleCase(a0)} and ${titleCase(a1)}`;
    default:
      return `${v} ${noun} - ${titleCase(a1)}, ${titleCase(material)}, by ${brand}`;
  }
}

function makeOptions(rng: Rng, type: ProductType): Record<string, string[]> {
  const options: Record<string, string[]> = {};
  if (type.options.length === 0 || !rng.bool(OPTION_SHARE)) return options;
  const keys = type.options.length > 1 && rng.bool(0.6) ? type.options : [rng.choice(type.options)];
  for (const key of keys) {
    const [name, pool] = OPTION_POOLS[key] as [string, string[]];
    const n = rng.int(2, Math.min(5, pool.length) + 1);
    const picked = new Set(sample(rng, pool, n));
    options[name] = pool.filter((v) => picked.has(v));
  }
  return options;
}

function makePrice(rng: Rng, [lo, hi]: [number, number]): { tag: string; price: number } {
  const cents = rng.choice([0.99, 0.49, 0.95, 0.0, 0.5]);
  const base = Math.floor(lo + (hi - lo) * rng.float()) + cents;
  if (!rng.bool(RANGE_SHARE)) return { tag: `$${pyFloat(base)}`, price: base };
  const top = Math.round(base * (1.15 + 0.45 * rng.float()) * 100) / 100;
  return { tag: `$${pyFloat(base)} to $${pyFloat(top)}`, price: base + (top - base) * rng.float() };
}

function makeProduct(rng: Rng, dept: Department, type: ProductType, asin: string): ShopProduct {
  const brand = rng.choice(dept.brands);
  const variant = rng.choice(type.variants);
  const attrs = sample(rng, type.attrs, rng.int(2, 5));
  const material = rng.choice(dept.materials);
  const [a0 = '', a1 = '', a2] = attrs;
  const descriptionParts = [
    `${brand} ${variant} ${type.noun} made with ${material}.`,
    `Key features: ${a0} and ${a1}${a2 ? `, plus ${a2}` : ''}.`,
    rng.choice(GENERIC_LINES),
  ];
  const bullets = attrs.map((a) =>
    rng.choice([
      `${titleCase(a)} for everyday use`,
      `${titleCase(a)}: made to last`,
      `Features a ${a} design`,
      `${titleCase(a)} and easy care`,
    ]),
  );
  bullets.splice(rng.int(0, bullets.length + 1), 0, `Made with ${material}`);
  const { tag, price } = makePrice(rng, type.price);
  return {
    asin,
    title: makeTitle(rng, brand, variant, type, attrs, material),
    description: descriptionParts.join(' '),
    bulletPoints: bullets,
    category: `${dept.root} › ${type.path}`,
    query: `${variant} ${type.noun}`.toLowerCase(),
    attributes: attrs,
    options: makeOptions(rng, type),
    price,
    priceTag: tag,
    department: dept.name,
  };
}

/**
 * Builds the catalogue for `seed`: `size` products spread evenly over the product types of
 * the five departments, then shuffled. Same seed and size ⇒ the same products.
 */
export function generateCatalogue(seed: number, size = DEFAULT_CATALOGUE_SIZE): ShopProduct[] {
  const rng = new Rng(seed).fork('webshop/catalogue');
  const types = DEPARTMENTS.flatMap((dept) => dept.types.map((type) => ({ dept, type })));
  const asins = new Set<string>();
  const newAsin = () => {
    for (;;) {
      let s = 'B0';
      for (let i = 0; i < 8; i++) s += ASIN_CHARS[rng.int(0, ASIN_CHARS.length)];
      if (!asins.has(s)) {
        asins.add(s);
        return s;
      }
    }
  };
  const products: ShopProduct[] = [];
  for (let i = 0; i < size; i++) {
    const { dept, type } = types[i % types.length] as { dept: Department; type: ProductType };
    products.push(makeProduct(rng, dept, type, newAsin()));
  }
  return rng.shuffle(products);
}
