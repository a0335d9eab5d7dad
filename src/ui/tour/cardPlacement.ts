// Where the tour's card goes so that what it points at stays visible: the candidate spots are
// the viewport's corners and the sides of the targets' bounding box; the card takes the first
// spot that covers none of the targets (in a fixed order, so it does not jump about), else the
// one covering the least of them. Pure geometry, tested in cardPlacement.test.ts.

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Gap between the card, the viewport edge and the targets. */
const MARGIN = 12;

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The part of `b` inside the viewport (what a person can see of it). */
function visible(b: Box, vw: number, vh: number): Box {
  const left = Math.max(0, b.left);
  const top = Math.max(0, b.top);
  return {
    left,
    top,
    width: Math.max(0, Math.min(vw, b.left + b.width) - left),
    height: Math.max(0, Math.min(vh, b.top + b.height) - top),
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * The card's top-left corner in a `vw`×`vh` viewport for a card of `card` size and the
 * targets' boxes (viewport coordinates). Without targets: the bottom-left corner.
 */
export function placeCard(
  vw: number,
  vh: number,
  card: { width: number; height: number },
  targets: readonly Box[],
): { left: number; top: number } {
  const w = card.width;
  const h = card.height;
  const maxLeft = vw - w - MARGIN;
  const maxTop = vh - h - MARGIN;
  const spots: { left: number; top: number }[] = [
    { left: MARGIN, top: maxTop },
    { left: maxLeft, top: maxTop },
    { left: maxLeft, top: MARGIN },
    { left: MARGIN, top: MARGIN },
  ];
  const seen = targets.map((t) => visible(t, vw, vh)).filter((t) => t.width > 0 && t.height > 0);
  if (seen.length > 0) {
    const left = Math.min(...seen.map((t) => t.left));
    const top = Math.min(...seen.map((t) => t.top));
    const right = Math.max(...seen.map((t) => t.left + t.width));
    const bottom = Math.max(...seen.map((t) => t.top + t.height));
    spots.push(
      { left: right + MARGIN, top: clamp(top, MARGIN, maxTop) },
      { left: left - MARGIN - w, top: clamp(top, MARGIN, maxTop) },
      { left: clamp(left, MARGIN, maxLeft), top: bottom + MARGIN },
      { left: clamp(left, MARGIN, maxLeft), top: top - MARGIN - h },
    );
  }
  const inside = spots
    .map((s) => ({ left: clamp(s.left, MARGIN, maxLeft), top: clamp(s.top, MARGIN, maxTop) }))
    .map((s) => ({ ...s, covered: seen.reduce((a, t) => a + overlap({ ...s, width: w, height: h }, t), 0) }));
  let best = inside[0] as (typeof inside)[number];
  for (const s of inside) if (s.covered < best.covered) best = s;
  return { left: best.left, top: best.top };
}

/** Share of each target's visible area the card covers (for tests and checks). */
export function coveredShares(vw: number, vh: number, card: Box, targets: readonly Box[]): number[] {
  return targets.map((t) => {
    const v = visible(t, vw, vh);
    const area = v.width * v.height;
    return area > 0 ? overlap(card, v) / area : 0;
  });
}
