// `starpo webshop-search`: BM25 search over a given catalogue, JSON Lines (docs/cli-contracts.md).
import { parseProduct } from '../../envs/webshop/json.js';
import { Bm25Index, SEARCH_RETURN_N } from '../../envs/webshop/search.js';
import { type Command, UsageError } from '../command.js';
import { mapJsonLines } from '../jsonl.js';

/** Answers one contract input line: {id, catalog, query, k}. */
export function searchLine(value: unknown): object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('line must be a JSON object with id, catalog, query and k');
  }
  const line = value as Record<string, unknown>;
  const id = line.id ?? null;
  if (id !== null && typeof id !== 'string' && typeof id !== 'number') {
    throw new Error('id must be a string or a number');
  }
  if (!Array.isArray(line.catalog)) throw new Error('catalog must be an array of products');
  const catalog = line.catalog.map((p, i) => parseProduct(p, `catalog[${i}]`));
  if (typeof line.query !== 'string') throw new Error('query must be a string');
  const k = line.k ?? SEARCH_RETURN_N;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) throw new Error('k must be an integer ≥ 0');
  const hits = new Bm25Index(catalog).search(line.query, k);
  return { id, asins: hits.map((i) => (catalog[i] as { asin: string }).asin) };
}

export const webshopSearchCommand: Command = {
  name: 'webshop-search',
  summary: 'WebShop-lite BM25 search for JSON Lines queries (docs/cli-contracts.md)',
  usage: [
    'usage: npm run -s starpo -- webshop-search < queries.jsonl',
    '',
    'Reads one {"id", "catalog": [product, ...], "query", "k"} object per line and writes',
    '{"id", "asins": [...]} per line (at most k, best first; k defaults to 50).',
    'A bad line yields {"id": ..., "error": "..."} and the run goes on.',
  ].join('\n'),
  async run(args, io) {
    if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
    await mapJsonLines(io.stdin, io.stdout, searchLine);
    return 0;
  },
};
