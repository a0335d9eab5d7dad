// The vocabulary of the synthetic WebShop-lite catalogue: departments, product types with their
// category paths (Amazon-style "a › b › c", as WebShop's product_category), search queries,
// attribute phrases, option groups and price ranges. Shaped after WebShop's 1000-product set:
// five departments, short attribute phrases, lowercase option values, most products without
// options. The generator (catalogue.ts) draws products from these tables with a seeded Rng.

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

const T = (
  noun: string,
  path: string,
  variants: string[],
  attrs: string[],
  options: string[],
  price: [number, number],
): ProductType => ({ noun, path, variants, attrs, options, price });

export const DEPARTMENTS: Department[] = [
  {
    name: 'beauty',
    root: 'beauty & personal care',
    brands: ['Lumera', 'Botaniq', 'PureVela', 'Aurelle', 'Skinsa', 'Verdanne', 'Nuvio', 'Clairly'],
    materials: [
      'aloe vera',
      'shea butter',
      'jojoba oil',
      'vitamin e',
      'green tea extract',
      'hyaluronic acid',
    ],
    types: [
      T(
        'shampoo',
        'hair care › shampoo & conditioner › shampoos',
        ['tea tree', 'argan oil', 'coconut', 'biotin', 'charcoal'],
        [
          'sulfate free',
          'paraben free',
          'dry scalp',
          'color safe',
          'cruelty free',
          'natural ingredients',
          'hair growth',
        ],
        ['liquidSize', 'scent'],
        [6, 32],
      ),
      T(
        'conditioner',
        'hair care › shampoo & conditioner › conditioners',
        ['argan oil', 'keratin', 'coconut', 'avocado'],
        ['sulfate free', 'damaged hair', 'paraben free', 'curly hair', 'deep conditioning', 'cruelty free'],
        ['liquidSize'],
        [7, 30],
      ),
      T(
        'hair extensions',
        'hair care › hair extensions, wigs & accessories › extensions',
        ['clip in', 'tape in', 'synthetic', 'human hair'],
        ['natural looking', 'long lasting', 'easy to use', 'heat resistant', 'high quality'],
        ['apparelColor'],
        [18, 120],
      ),
      T(
        'face serum',
        'skin care › face › serums',
        ['vitamin c', 'retinol', 'hyaluronic acid', 'niacinamide'],
        [
          'anti aging',
          'fine lines',
          'dark spots',
          'sensitive skin',
          'fragrance free',
          'dermatologist tested',
        ],
        ['liquidSize'],
        [9, 45],
      ),
      T(
        'moisturizer',
        'skin care › face › creams & moisturizers',
        ['night', 'daily', 'oil free', 'ceramide'],
        ['dry skin', 'non greasy', 'fragrance free', 'sensitive skin', 'spf 30', 'anti aging'],
        ['weightSize'],
        [8, 40],
      ),
      T(
        'lipstick',
        'makeup › lips › lipstick',
        ['matte', 'liquid', 'satin', 'tinted'],
        ['long lasting', 'cruelty free', 'highly pigmented', 'vegan', 'moisturizing'],
        ['shade'],
        [5, 24],
      ),
      T(
        'body wash',
        'skin care › body › body washes',
        ['peppermint', 'oatmeal', 'charcoal', 'honey'],
        ['dry skin', 'paraben free', 'natural ingredients', 'sensitive skin', 'plant based'],
        ['liquidSize', 'scent'],
        [5, 22],
      ),
      T(
        'nail polish',
        'foot, hand & nail care › nail art & polish › nail polish',
        ['gel', 'quick dry', 'glitter', 'pastel'],
        ['long lasting', 'non toxic', 'high gloss', 'chip resistant', 'vegan'],
        ['shade', 'packCount'],
        [4, 20],
      ),
    ],
  },
  {
    name: 'fashion',
    root: 'clothing, shoes & jewelry',
    brands: [
      'Northpeak',
      'Calder & Co',
      'Urbanite',
      'Maison Rue',
      'Trailform',
      'Softwear',
      'Bexley',
      'Coastline',
    ],
    materials: ['cotton', 'polyester', 'fleece', 'linen', 'spandex', 'merino wool', 'denim', 'leather'],
    types: [
      T(
        "men's t-shirt",
        'men › clothing › shirts › t-shirts',
        ['crew neck', 'v-neck', 'long sleeve', 'graphic'],
        ['machine wash', 'classic fit', 'cotton blend', 'short sleeve', 'moisture wicking', 'tumble dry'],
        ['apparelColor', 'apparelSize'],
        [9, 35],
      ),
      T(
        "women's hoodie",
        'women › clothing › fashion hoodies & sweatshirts',
        ['pullover', 'zip up', 'oversized', 'cropped'],
        ['machine wash', 'drawstring closure', 'long sleeve', 'soft fleece', 'relaxed fit'],
        ['apparelColor', 'apparelSize'],
        [18, 55],
      ),
      T(
        "men's chino pants",
        'men › clothing › pants › casual',
        ['slim fit', 'straight fit', 'stretch', 'relaxed'],
        ['machine wash', 'stretch fabric', 'button closure', 'regular fit', 'wrinkle resistant'],
        ['apparelColor', 'waist'],
        [20, 60],
      ),
      T(
        "women's leggings",
        'women › clothing › leggings',
        ['high waist', 'yoga', 'fleece lined', 'capri'],
        ['tummy control', 'squat proof', 'moisture wicking', 'machine wash', 'four way stretch'],
        ['apparelColor', 'apparelSize'],
        [12, 40],
      ),
      T(
        'running shoes',
        'men › shoes › athletic › running',
        ['lightweight', 'trail', 'cushioned', 'wide'],
        ['rubber sole', 'breathable mesh', 'arch support', 'non slip', 'lace up'],
        ['apparelColor', 'shoeSize'],
        [35, 130],
      ),
      T(
        "women's sandals",
        'women › shoes › sandals',
        ['flat', 'platform', 'slide', 'strappy'],
        ['open toe', 'rubber sole', 'arch support', 'comfortable', 'adjustable strap'],
        ['apparelColor', 'shoeSize'],
        [15, 70],
      ),
      T(
        'winter beanie',
        'men › accessories › hats & caps › skullies & beanies',
        ['cuffed', 'slouchy', 'knit', 'pom pom'],
        ['soft warm', 'one size', 'hand wash', 'acrylic knit', 'stretchy'],
        ['apparelColor'],
        [8, 25],
      ),
      T(
        'leather wallet',
        'men › accessories › wallets, card cases & money organizers › wallets',
        ['bifold', 'trifold', 'slim', 'rfid'],
        ['genuine leather', 'rfid blocking', 'gift box', 'card slots', 'minimalist'],
        ['apparelColor'],
        [12, 50],
      ),
    ],
  },
  {
    name: 'garden',
    root: 'patio, lawn & garden',
    brands: [
      'GreenHaven',
      'Terrabloom',
      'Yardwise',
      'Fernhill',
      'Sproutly',
      'Oakridge',
      'Bloomfield',
      'Rootstock',
    ],
    materials: ['galvanized steel', 'recycled plastic', 'cedar wood', 'ceramic', 'rubber', 'aluminum'],
    types: [
      T(
        'raised garden bed',
        'gardening & lawn care › pots, planters & container accessories › raised beds',
        ['galvanized', 'cedar', 'elevated', 'modular'],
        ['easy assembly', 'weather resistant', 'rust resistant', 'open base', 'vegetable garden'],
        ['bedSize'],
        [40, 180],
      ),
      T(
        'potting soil',
        'gardening & lawn care › soils, mulches & amendments › potting soil',
        ['organic', 'cactus', 'seed starting', 'indoor'],
        ['organic', 'well draining', 'nutrient rich', 'vegetables', 'peat free'],
        ['soilSize'],
        [8, 35],
      ),
      T(
        'garden hose',
        'gardening & lawn care › watering equipment › garden hoses',
        ['expandable', 'heavy duty', 'lightweight', 'coiled'],
        ['kink free', 'leak proof', 'brass fittings', 'lightweight', 'flexible'],
        ['hoseLength', 'gardenColor'],
        [20, 70],
      ),
      T(
        'planter pot',
        'gardening & lawn care › pots, planters & container accessories › planters',
        ['ceramic', 'self watering', 'hanging', 'terracotta'],
        ['drainage hole', 'indoor outdoor', 'modern design', 'frost resistant', 'set of three'],
        ['gardenColor', 'potSize'],
        [12, 60],
      ),
      T(
        'bird feeder',
        'outdoor decor › bird & wildlife care › bird feeders',
        ['hanging', 'squirrel proof', 'window', 'tube'],
        ['squirrel proof', 'easy to clean', 'weather resistant', 'large capacity'],
        ['gardenColor'],
        [12, 45],
      ),
      T(
        'solar lights',
        'outdoor decor › lighting › pathway lights',
        ['pathway', 'string', 'spot', 'lantern'],
        ['waterproof', 'auto on off', 'warm white', 'long lasting', 'easy to install'],
        ['packCount', 'gardenColor'],
        [15, 55],
      ),
      T(
        'pruning shears',
        'gardening & lawn care › hand tools › pruning shears',
        ['bypass', 'anvil', 'ratchet', 'heavy duty'],
        ['stainless steel', 'ergonomic handle', 'sharp blade', 'safety lock', 'rust resistant'],
        [],
        [10, 40],
      ),
      T(
        'patio chair',
        'patio furniture & accessories › chairs',
        ['folding', 'adirondack', 'rocking', 'wicker'],
        ['weather resistant', 'easy assembly', 'high back', 'heavy duty', 'outdoor use'],
        ['gardenColor', 'packCount'],
        [45, 220],
      ),
    ],
  },
  {
    name: 'electronics',
    root: 'electronics',
    brands: ['Voltix', 'Aurasound', 'Kinetik', 'Nexora', 'Pixelon', 'Zentra', 'Brightwave', 'Corelink'],
    materials: ['aluminum alloy', 'abs plastic', 'tempered glass', 'braided nylon', 'silicone'],
    types: [
      T(
        'wireless earbuds',
        'headphones, earbuds & accessories › headphones & earbuds › earbud headphones',
        ['bluetooth', 'sport', 'noise cancelling', 'mini'],
        ['noise cancelling', 'bluetooth 5.0', 'long battery life', 'water resistant', 'charging case'],
        ['techColor'],
        [20, 150],
      ),
      T(
        'usb c charger',
        'computers & accessories › laptop accessories › chargers & adapters',
        ['fast', 'gan', 'dual port', 'travel'],
        ['fast charging', 'compact', 'foldable plug', 'overheat protection', 'multi port'],
        ['techColor', 'packCount'],
        [12, 60],
      ),
      T(
        'hdmi cable',
        'television & video › accessories › cables › hdmi cables',
        ['high speed', '4k', '8k', 'braided'],
        ['high speed', 'gold plated', '4k hdr', 'braided cord', 'ethernet'],
        ['cableLength', 'packCount'],
        [6, 25],
      ),
      T(
        'smart tv',
        'television & video › televisions',
        ['4k uhd', 'qled', 'led', 'android'],
        ['ultra hd', 'hdr', 'smart tv', 'voice remote', 'dolby vision'],
        ['screen'],
        [180, 900],
      ),
      T(
        'bluetooth speaker',
        'portable audio & video › portable speakers & docks › portable bluetooth speakers',
        ['portable', 'waterproof', 'mini', 'party'],
        ['waterproof', 'long battery life', 'deep bass', 'stereo pairing', 'built in microphone'],
        ['techColor'],
        [18, 120],
      ),
      T(
        'wireless mouse',
        'computers & accessories › computer accessories & peripherals › mice',
        ['ergonomic', 'silent', 'gaming', 'compact'],
        ['silent click', 'rechargeable', 'usb receiver', 'adjustable dpi', 'ergonomic design'],
        ['techColor'],
        [9, 60],
      ),
      T(
        'memory card',
        'computers & accessories › data storage › memory cards › micro sd cards',
        ['micro sd', 'sdxc', 'high endurance'],
        ['high speed', 'class 10', 'with adapter', 'water resistant', '4k video'],
        ['capacity'],
        [7, 90],
      ),
      T(
        'phone case',
        'cell phones & accessories › cases, holsters & sleeves › basic cases',
        ['clear', 'rugged', 'wallet', 'slim'],
        ['shockproof', 'wireless charging compatible', 'raised edges', 'anti scratch', 'drop protection'],
        ['techColor'],
        [8, 35],
      ),
    ],
  },
  {
    name: 'grocery',
    root: 'grocery & gourmet food',
    brands: [
      'Harvest Lane',
      'Goldfield',
      "Nature's Table",
      'Maple & Oak',
      'Sunridge',
      'Pantry Co',
      'Wildgrain',
      'Orchard Hill',
    ],
    materials: ['whole grain oats', 'cane sugar', 'sea salt', 'almonds', 'raw honey', 'cocoa'],
    types: [
      T(
        'honey',
        'pantry staples › sweeteners › honey',
        ['raw', 'manuka', 'clover', 'wildflower'],
        ['raw', 'organic', 'non gmo', 'unfiltered', 'gluten free'],
        ['foodSize'],
        [7, 45],
      ),
      T(
        'ground coffee',
        'beverages › coffee, tea & cocoa › coffee › ground coffee',
        ['dark roast', 'medium roast', 'decaf', 'espresso'],
        ['organic', 'fair trade', 'single origin', 'whole bean', 'low acid'],
        ['foodSize'],
        [8, 30],
      ),
      T(
        'green tea',
        'beverages › coffee, tea & cocoa › tea › green',
        ['matcha', 'jasmine', 'sencha', 'mint'],
        ['organic', 'caffeine free', 'non gmo', 'individually wrapped', 'antioxidant rich'],
        ['teaCount'],
        [4, 25],
      ),
      T(
        'granola',
        'breakfast foods › cereals › granola',
        ['almond', 'maple', 'protein', 'keto'],
        ['gluten free', 'low sugar', 'high protein', 'non gmo', 'whole grain'],
        ['flavor', 'foodSize'],
        [4, 18],
      ),
      T(
        'peanut butter',
        'pantry staples › jams, jellies & sweet spreads › nut butters',
        ['creamy', 'crunchy', 'natural', 'powdered'],
        ['no added sugar', 'non gmo', 'high protein', 'keto friendly', 'gluten free'],
        ['foodSize'],
        [4, 20],
      ),
      T(
        'protein bars',
        'snack foods › bars › protein bars',
        ['whey', 'plant', 'keto', 'chewy'],
        ['high protein', 'low sugar', 'gluten free', 'individually wrapped', 'low carb'],
        ['flavor', 'packCount'],
        [10, 40],
      ),
      T(
        'olive oil',
        'pantry staples › cooking & baking › oils › olive',
        ['extra virgin', 'cold pressed', 'spanish', 'italian'],
        ['cold pressed', 'non gmo', 'first press', 'single origin', 'kosher'],
        ['foodSize'],
        [8, 40],
      ),
      T(
        'dark chocolate',
        'snack foods › candy & chocolate › chocolate bars',
        ['sea salt', 'almond', 'mint', 'orange'],
        ['vegan', 'fair trade', 'gluten free', 'dairy free', 'low sugar'],
        ['flavor', 'packCount'],
        [3, 25],
      ),
    ],
  },
];

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
