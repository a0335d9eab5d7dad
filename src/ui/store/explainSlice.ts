// Which explanation is open (at most one popover at a time): a list of (kind, key) items, e.g.
// every metric a chart draws, or the one signal an echo-trap marker fired.
import type { StateCreator } from 'zustand';

/** The three tables of explanations (ui/explain/texts.ts): metrics, settings, signals. */
export type ExplainKind = 'metric' | 'field' | 'signal';

export interface ExplainItem {
  kind: ExplainKind;
  key: string;
}

export interface ExplainSlice {
  explainItems: ExplainItem[] | null;
  /** The heading of the open explanation (a chart title, a field label, a signal). */
  explainTitle: string;
  openExplain(title: string, items: ExplainItem[]): void;
  closeExplain(): void;
}

export const createExplainSlice: StateCreator<ExplainSlice> = (set) => ({
  explainItems: null,
  explainTitle: '',
  openExplain: (explainTitle, explainItems) => set({ explainTitle, explainItems }),
  closeExplain: () => set({ explainItems: null, explainTitle: '' }),
});
