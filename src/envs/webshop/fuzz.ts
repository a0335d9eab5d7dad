// fuzzywuzzy/thefuzz 0.19 `token_set_ratio` with default processing, as WebShop's reward calls
// it (thefuzz 0.19.0 without python-Levenshtein, so every ratio is difflib's
// SequenceMatcher.ratio, rounded half-to-even like Python's round()).
// Processing: delete code points 128-255 (force_ascii), turn non-word characters into spaces,
// lowercase, trim. Token sets A, B; s = sorted(A∩B), t1 = s + sorted(A−B), t2 = s + sorted(B−A)
// (joined with spaces, trimmed); score = max(r(s,t1), r(s,t2), r(t1,t2)).

/** difflib.SequenceMatcher(None, a, b).ratio(), autojunk included (only bites when len(b) ≥ 200). */
export function sequenceRatio(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  if (la + lb === 0) return 1;
  // b2j: positions of each character of b; with autojunk, "popular" characters (more than
  // 1% + 1 of a long b) are dropped from it, as difflib does.
  const b2j = new Map<string, number[]>();
  for (let j = 0; j < lb; j++) {
    const c = b[j] as string;
    const list = b2j.get(c);
    if (list) list.push(j);
    else b2j.set(c, [j]);
  }
  if (lb >= 200) {
    const ntest = Math.floor(lb / 100) + 1;
    for (const [c, idxs] of b2j) if (idxs.length > ntest) b2j.delete(c);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i] as string) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // No junk predicate, so the match extends over any equal neighbours (popular ones too).
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  };
  let matches = 0;
  const queue: [number, number, number, number][] = [[0, la, 0, lb]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    matches += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return (2 * matches) / (la + lb);
}

/** Python's round() to an integer: halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** fuzzywuzzy `ratio`: 100 for equal strings, 0 if either is empty, else round(100·SequenceMatcher ratio). */
export function ratio(s1: string, s2: string): number {
  if (s1 === s2) return 100;
  if (s1.length === 0 || s2.length === 0) return 0;
  return roundHalfEven(100 * sequenceRatio(s1, s2));
}

/** fuzzywuzzy `full_process` with force_ascii: drop U+0080–U+00FF, non-word → space, lowercase, trim. */
export function fullProcess(s: string): string {
  return s
    .replace(/[\u0080-\u00ff]/g, '')
    .replace(/[^\p{L}\p{N}_]/gu, ' ')
    .toLowerCase()
    .trim();
}

function tokenSet(processed: string): Set<string> {
  return new Set(processed.split(/\s+/).filter((t) => t.length > 0));
}

const byCodePoint = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** thefuzz `token_set_ratio(s1, s2)` (default processing), an integer in [0, 100]. */
export function tokenSetRatio(s1: string, s2: string): number {
  const p1 = fullProcess(s1);
  const p2 = fullProcess(s2);
  if (p1.length === 0 || p2.length === 0) return 0;
  const a = tokenSet(p1);
  const b = tokenSet(p2);
  const sect = [...a].filter((t) => b.has(t)).sort(byCodePoint);
  const diffAB = [...a].filter((t) => !b.has(t)).sort(byCodePoint);
  const diffBA = [...b].filter((t) => !a.has(t)).sort(byCodePoint);
  const sorted = sect.join(' ');
  const combined1 = `${sorted} ${diffAB.join(' ')}`.trim();
  const combined2 = `${sorted} ${diffBA.join(' ')}`.trim();
  return Math.max(ratio(sorted, combined1), ratio(sorted, combined2), ratio(combined1, combined2));
}
