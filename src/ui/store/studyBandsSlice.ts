// The study's reference-band file as the playground holds it, a slice of the one store: loaded
// once from the app's base URL (study/echo-trap.json, written by `sweep --study echo-trap`),
// validated with the shared schema, and the switch that hides the bands. A missing or invalid
// file is no error for the app: the charts draw without bands and a short note says why.
import type { StateCreator } from 'zustand';
import { parseStudyBands, type StudyBands } from '../../core/metrics/studyBands.js';

/** Where the file is, relative to the app's base URL. */
export const STUDY_BANDS_PATH = 'study/echo-trap.json';

export interface StudyBandsState {
  /** 'idle' until the file is asked for, 'loading' while it is fetched. */
  status: 'idle' | 'loading' | 'ok' | 'absent' | 'invalid';
  file: StudyBands | null;
  /** Why there are no bands (absent, invalid), for the note. */
  note: string;
  show: boolean;
}

export interface StudyBandsSlice {
  studyBands: StudyBandsState;
  setStudyBands(patch: Partial<StudyBandsState>): void;
}

export const createStudyBandsSlice: StateCreator<StudyBandsSlice> = (set) => ({
  studyBands: { status: 'idle', file: null, note: '', show: true },
  setStudyBands: (patch) => set((s) => ({ studyBands: { ...s.studyBands, ...patch } })),
});

/** The state a fetched response leads to (exported for tests). */
export function bandsFromResponse(
  ok: boolean,
  httpStatus: number,
  text: string,
): Pick<StudyBandsState, 'status' | 'file' | 'note'> {
  // A static server may answer an unknown path with the app's own page.
  if (!ok || text.trimStart().startsWith('<'))
    return {
      status: 'absent',
      file: null,
      note: `No study reference yet (${STUDY_BANDS_PATH}${ok ? '' : `: HTTP ${httpStatus}`}).`,
    };
  try {
    return { status: 'ok', file: parseStudyBands(JSON.parse(text)), note: '' };
  } catch (err) {
    return { status: 'invalid', file: null, note: `Study reference refused: ${(err as Error).message}` };
  }
}

/** Fetches and checks the file into the store, once (later calls do nothing); never throws. */
export async function loadStudyBands(
  store: { getState(): StudyBandsSlice },
  base: string = document.baseURI,
): Promise<void> {
  const { studyBands, setStudyBands } = store.getState();
  if (studyBands.status !== 'idle') return;
  setStudyBands({ status: 'loading' });
  try {
    const res = await fetch(new URL(STUDY_BANDS_PATH, base));
    setStudyBands(bandsFromResponse(res.ok, res.status, await res.text()));
  } catch (err) {
    setStudyBands({ status: 'absent', file: null, note: `No study reference (${(err as Error).message}).` });
  }
}
