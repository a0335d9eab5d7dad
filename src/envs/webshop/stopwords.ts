// The English stopword list of the WebShop-lite contract (docs/cli-contracts.md): Lucene's
// default English stop set, used by BM25 tokenisation and by the title-type substitution for
// spaCy nouns in the reward. Embedded here so nothing reads shared files at run time.

/** The 33 stopwords, lowercase. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their ' +
    'then there these they this to was will with'
  ).split(' '),
);

/** Lowercase tokens of `text` matching `pattern` (global), minus the stopwords, in order. */
export function contentTokens(text: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(pattern)) {
    if (!STOPWORDS.has(m[0])) out.push(m[0]);
  }
  return out;
}
