// The shapes and shared vocabulary of the synthetic WebShop-lite catalogue: product types and
// departments (listed in departments.ts), option value pools and instruction openers. Shaped
// after WebShop's 1000-product set: short attribute phrases, lowercase option values, most
// products without options. catalogue.ts draws products from these tables with a seeded Rng.

/** One kind of product (e.g. shampoo) and what varies between products of that kind. */
export interface ProductType {
  /** Head noun phrase used in titles and queries, e.g. "shampoo". */
  noun: string;
  /** Category path under the department root. */
  path: string;
  /** Modifiers that make sub-kinds and queries, e.g. "tea tree" → query "tea tree shampoo". */
  variants: string[];
  /** Attribute phrases a product of this type may have. */
  attrs: string[];
  /** Option groups this type may offer; values are drawn from OPTION_POOLS by key. */
  options: string[];
  /** Typical price range in dollars. */
  price: [number, number];
}

export interface Department {
  name: string;
  root: string;
  brands: string[];
  /** Materials or ingredients mentioned in descriptions. */
  materials: string[];
  types: ProductType[];
}

/** Option groups by key: [option name, values]. */
export const OPTION_POOLS: Record<string, [string, string[]]> = {
  liquidSize: ['size', ['2 fl oz', '4 fl oz', '8 fl oz', '12 fl oz', '16 fl oz', '32 fl oz']],
  weightSize: ['size', ['1.7 ounce', '3.4 ounce', '6 ounce', '12 ounce', '1 pound', '2 pound']],
  scent: ['scent', ['lavender', 'unscented', 'eucalyptus mint', 'citrus', 'vanilla', 'rose', 'coconut']],
  shade: ['color', ['nude', 'rose pink', 'berry red', 'coral', 'mauve', 'chocolate brown', 'black']],
  apparelSize: ['size', ['x-small', 'small', 'medium', 'large', 'x-large', 'xx-large']],
  apparelColor: [
    'color',
    [
      'black',
      'white',
      'navy blue',
      'heather grey',
      'olive green',
      'burgundy',
      'khaki',
      'light pink',
      'royal blue',
    ],
  ],
  shoeSize: ['size', ['6', '7', '7.5', '8', '8.5', '9', '10', '11', '12']],
  waist: ['size', ['28w x 30l', '30w x 30l', '32w x 32l', '34w x 32l', '36w x 34l']],
  gardenColor: ['color', ['green', 'black', 'terracotta', 'white', 'grey', 'brown', 'blue']],
  potSize: ['size', ['small', 'medium', 'large', '5 gallon', '10 gallon']],
  bedSize: ['size', ['4 x 2 feet', '6 x 3 feet', '8 x 4 feet', '4 x 4 feet']],
  soilSize: ['size', ['8 quart', '16 quart', '1 cubic foot', '2 cubic feet']],
  hoseLength: ['size', ['25 feet', '50 feet', '75 feet', '100 feet']],
  packCount: ['item package quantity', ['1', '2', '3', '4', '6', '12']],
  techColor: ['color', ['black', 'white', 'silver', 'space gray', 'blue', 'red', 'rose gold']],
  capacity: ['capacity', ['32gb', '64gb', '128gb', '256gb', '512gb', '1tb']],
  cableLength: ['size', ['3 feet', '6 feet', '10 feet', '15 feet']],
  screen: ['size', ['32 inch', '43 inch', '50 inch', '55 inch', '65 inch']],
  flavor: [
    'flavor name',
    ['original', 'vanilla', 'chocolate', 'sea salt', 'honey', 'mixed berry', 'cinnamon', 'peanut butter'],
  ],
  foodSize: [
    'size',
    ['6 ounce (pack of 1)', '12 ounce (pack of 1)', '12 ounce (pack of 2)', '24 ounce', '2 pound'],
  ],
  teaCount: ['size', ['20 count', '40 count', '100 count', '20 count (pack of 6)']],
};

/** Human-style openings of an instruction, after WebShop's collected instructions. */
export const HUMAN_OPENERS = [
  'i need',
  "i'm looking for",
  'i want to buy',
  'find me',
  'i would like',
  'can you get me',
  'show me',
  'i am searching for',
];

/** Openings of the synthetic instructions ("Find me ... with color: ..."). */
export const SYNTHETIC_OPENERS = ['find me', 'i need', 'i want', 'buy me', 'get me'];
