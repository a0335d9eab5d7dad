// The WebShop-lite data shapes: a product as the contract (docs/cli-contracts.md) writes it,
// extended with the catalogue's price tag, and a goal as WebShop's goal.py builds it.

/** One catalogue product. Field names follow the contract; upstream names in brackets. */
export interface Product {
  /** Ten characters, upper case, e.g. "B07TEA0001" [asin]. */
  asin: string;
  /** [Title] / [name]. */
  title: string;
  /** [Description]. */
  description: string;
  /** Feature lines [BulletPoints]; may be empty. */
  bulletPoints: string[];
  /** Category path "a › b › c" [product_category]. */
  category: string;
  /** The search query the product was collected under, lowercase [query]. */
  query: string;
  /** Attribute phrases such as "sulfate free" [Attributes]. */
  attributes: string[];
  /** Option groups, name → values, all lowercase; empty object when none [options]. */
  options: Record<string, string[]>;
  /** The purchase price in dollars, fixed when the catalogue is built [product_prices]. */
  price: number;
}

/** A catalogue product with what only the shop pages need. */
export interface ShopProduct extends Product {
  /** The listed price: "$X" or "$X to $Y" [Price]. */
  priceTag: string;
  /** Top-level category: beauty, fashion, garden, electronics or grocery [category]. */
  department: string;
}

/** A shopping goal (goal.py): what to buy and how the purchase is scored. */
export interface Goal {
  /** The target product's asin. */
  asin: string;
  /** The target product's title [name]. */
  name: string;
  /** [query] */
  query: string;
  /** [product_category] */
  category: string;
  /** The attribute phrases that count [attributes]. */
  attributes: string[];
  /** The option values asked for [goal_options]. */
  goalOptions: string[];
  /** Upper bound on the price; 1e6 when the instruction names none [price_upper]. */
  priceUpper: number;
  /** The instruction shown to the agent [instruction_text]. */
  instruction: string;
}
