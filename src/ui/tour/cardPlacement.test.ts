// The tour card's spot covers none of its targets where the viewport leaves room (tried at the
// two sizes the walk-through used), keeps the default bottom-left corner when that is free, and
// otherwise covers as little of them as it can.
import { describe, expect, it } from 'vitest';
import { coveredShares, placeCard } from './cardPlacement.js';

const box = (left: number, top: number, width: number, height: number) => ({ left, top, width, height });

describe('placeCard', () => {
  it('keeps the bottom-left corner when nothing is there', () => {
    expect(placeCard(1400, 900, { width: 420, height: 300 }, [])).toEqual({ left: 12, top: 588 });
    expect(placeCard(1400, 900, { width: 420, height: 300 }, [box(1028, 30, 368, 730)])).toEqual({
      left: 12,
      top: 588,
    });
  });

  it('moves off the targets at 1024×700: a chart in the centre and the viewer on the right', () => {
    const card = { width: 320, height: 420 };
    const targets = [box(275, 20, 404, 224), box(692, 4, 328, 692)];
    const at = placeCard(1024, 700, card, targets);
    const shares = coveredShares(1024, 700, { ...at, ...card }, targets);
    expect(Math.max(...shares)).toBeLessThan(0.15);
  });

  it('finds the free side of a chart and the full-width bar above it', () => {
    const card = { width: 320, height: 360 };
    const targets = [box(275, 222, 404, 224), box(4, 8, 1016, 100)];
    const at = placeCard(1024, 700, card, targets);
    expect(coveredShares(1024, 700, { ...at, ...card }, targets)).toEqual([0, 0]);
  });

  it('ignores the parts of targets outside the viewport', () => {
    const card = { width: 320, height: 300 };
    const offscreen = box(275, 2000, 404, 224);
    expect(placeCard(1024, 700, card, [offscreen])).toEqual({ left: 12, top: 388 });
  });

  it('covers the least it can when every spot covers something', () => {
    const card = { width: 600, height: 600 };
    const huge = box(0, 0, 1000, 650);
    const at = placeCard(1024, 700, card, [huge]);
    const share = coveredShares(1024, 700, { ...at, ...card }, [huge])[0] as number;
    expect(share).toBeLessThan(0.56);
  });
});
