// In-memory Okapi BM25 over a product list, as docs/cli-contracts.md specifies it (WebShop
// searches a Pyserini/Lucene index; we keep its k1 = 0.9, b = 0.4 and document text, with
// regex tokens minus stopwords and no stemming). Upstream returns at most 50 hits.
import { contentTokens } from './stopwords.js';
import type { Product } from './types.js';

/** Anserini's BM25 defaults. */
const K1 = 0.9;
const B = 0.4;
/** Hits a WebShop search returns (upstream SEARCH_RETURN_N). */
export const SEARCH_RETURN_N = 50;

const TOKEN = /[a-z0-9]+/g;

/** The option text of a document: "name: v1, v2" per option, joined by ", and ". */
export function optionText(options: Record<string, string[]>): string {
  return Object.entries(options)
    .map(([name, values]) => `${name}: ${values.join(', ')}`)
    .join(', and ');
}

/** The indexed text of a product, lowercased. */
export function documentText(p: Product): string {
  return `${p.title} ${p.description} ${p.bulletPoints[0] ?? ''} ${optionText(p.options)}`.toLowerCase();
}

/** Search tokens of a text: [a-z0-9]+ over the lowercased text, minus stopwords. */
export function searchTokens(text: string): string[] {
  return contentTokens(text, TOKEN);
}

/** A BM25 index over a fixed product list; `search` returns indices into that list. */
export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: Float64Array;
  private readonly avgLen: number;
  private readonly n: number;

  constructor(products: readonly Product[]) {
    this.n = products.length;
    this.lengths = new Float64Array(this.n);
    let total = 0;
    products.forEach((p, doc) => {
      const tokens = searchTokens(documentText(p));
      this.lengths[doc] = tokens.length;
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, count] of tf) {
        const list = this.postings.get(t);
        if (list) list.push({ doc, tf: count });
        else this.postings.set(t, [{ doc, tf: count }]);
      }
    });
    this.avgLen = this.n > 0 ? total / this.n : 0;
  }

  /** Indices of the best `k` documents with score > 0, best first; ties keep list order. */
  search(query: string, k: number = SEARCH_RETURN_N): number[] {
    const scores = new Float64Array(this.n);
    const touched: number[] = [];
    for (const t of new Set(searchTokens(query))) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (this.n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        if (scores[doc] === 0) touched.push(doc);
        const norm = tf + K1 * (1 - B + (B * (this.lengths[doc] as number)) / this.avgLen);
        scores[doc] = (scores[doc] as number) + (idf * tf * (K1 + 1)) / norm;
      }
    }
    const hits = touched.filter((d) => (scores[d] as number) > 0);
    hits.sort((x, y) => (scores[y] as number) - (scores[x] as number) || x - y);
    return hits.slice(0, Math.max(0, k));
  }
}
