// What the user is looking at: the right-hand tab, the iteration they jumped to, the sample
// and turn in the viewer, and the stored runs overlaid on the charts or compared.
import type { StateCreator } from 'zustand';
import type { AppState, ViewSlice } from './types.js';

// The tab's type, declared with the slice in types.ts.
export type { RightTab } from './types.js';

/** Colours: the current run first, then overlays (distinct, colour-blind-friendly order). */
export const RUN_COLORS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#9333ea',
  '#ea580c',
  '#0891b2',
  '#ca8a04',
  '#db2777',
];

export const createViewSlice: StateCreator<AppState, [], [], ViewSlice> = (set, get) => ({
  rightTab: 'trajectory',
  focusIteration: null,
  sampleIndex: null,
  turnIndex: 0,
  overlays: [],
  compareIds: [],
  notice: null,
  interrupted: null,
  setInterrupted: (interrupted) => set({ interrupted }),
  reasoningIteration: null,
  openReasoning: (reasoningIteration) => set({ reasoningIteration }),
  setRightTab: (rightTab) => set({ rightTab }),
  jumpTo(iteration) {
    if (iteration === null) return set({ focusIteration: null });
    // Show the sample nearest the iteration in the viewer.
    const samples = get().samples;
    let best: number | null = null;
    samples.forEach((s, i) => {
      const b = best === null ? null : samples[best];
      if (!b || Math.abs(s.iteration - iteration) < Math.abs(b.iteration - iteration)) best = i;
    });
    set({ focusIteration: iteration, sampleIndex: best, turnIndex: 0, rightTab: 'trajectory' });
  },
  setSampleIndex: (sampleIndex) => set({ sampleIndex, turnIndex: 0 }),
  setTurnIndex: (turnIndex) => set({ turnIndex }),
  addOverlay(o) {
    const cur = get().overlays.filter((x) => x.id !== o.id);
    const used = new Set(cur.map((x) => x.color));
    const color = RUN_COLORS.slice(1).find((c) => !used.has(c)) ?? (RUN_COLORS[1] as string);
    set({ overlays: [...cur, { ...o, color }] });
  },
  removeOverlay: (id) => set({ overlays: get().overlays.filter((x) => x.id !== id) }),
  toggleCompare(id) {
    const ids = get().compareIds;
    set({ compareIds: ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id] });
  },
  setNotice: (notice) => set({ notice }),
});
