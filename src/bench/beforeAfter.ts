// Before and after issue 22's cheaper passes in one run (core/model/fastPaths.ts switches them):
// the echo-trap preset with its shipped base model, and batched decoding, each timed with the
// passes off ("before", the code as it was) and on ("after"), alternating off-on-on-off over the
// rounds so slow drift in the machine's load falls on both sides alike. Seeds are the same on
// both sides, so the two sides do the same work (their numbers agree to float tolerance).
import { FAST_PATH_NOTES, setFastPaths } from '../core/model/fastPaths.js';
import type { Tokenizer } from '../core/tokenizer.js';
import type { BackendName } from '../workers/backend.js';
import { benchPreset, type PresetBench } from './presetBench.js';
import { benchRollout } from './rolloutBench.js';
import type { BenchResults } from './schema.js';

export interface BeforeAfterSettings {
  /** Preset iterations per side and round (the first of each is a warm-up; 0: no preset). */
  presetIterations: number;
  rounds: number;
  decode: { rows: number; prompt: number; newTokens: number };
}

type Split = PresetBench['split'];
const SPLIT_KEYS: (keyof Split)[] = ['rolloutMs', 'envMs', 'scoringMs', 'updateMs', 'metricsMs'];

function meanSplit(xs: Split[]): Split {
  const out = { rolloutMs: 0, envMs: 0, scoringMs: 0, updateMs: 0, metricsMs: 0 };
  for (const k of SPLIT_KEYS) out[k] = xs.reduce((s, x) => s + x[k], 0) / Math.max(1, xs.length);
  return out;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] as number);
};

/** Off-on, on-off, off-on, …: which sides in which order for round r. */
const order = (r: number): boolean[] => (r % 2 === 0 ? [false, true] : [true, false]);

/** Times the preset and decoding with the cheaper passes off and on; always leaves them on. */
export async function benchBeforeAfter(
  backend: BackendName,
  tok: Tokenizer,
  s: BeforeAfterSettings,
  log: (line: string) => void = () => {},
): Promise<NonNullable<BenchResults['beforeAfter']>> {
  try {
    const decode: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const preset: Record<'off' | 'on', PresetBench[]> = { off: [], on: [] };
    for (let r = 0; r < s.rounds; r++) {
      for (const on of order(r)) {
        setFastPaths(on);
        const side = on ? 'on' : 'off';
        const d = await benchRollout(tok, 'nano', s.decode.rows, s.decode.prompt, s.decode.newTokens);
        decode[side].push(d.cachedTokensPerSec);
        if (s.presetIterations > 0) {
          log(`bench: echo-trap preset, cheaper passes ${side} (round ${r + 1} of ${s.rounds})`);
          preset[side].push(await benchPreset('echo-trap', backend, s.presetIterations));
        }
      }
    }
    const before = median(decode.off);
    const after = median(decode.on);
    const sideOf = (runs: PresetBench[]) => ({
      secondsPerIteration: runs.reduce((a, p) => a + p.secondsPerIteration, 0) / Math.max(1, runs.length),
      split: meanSplit(runs.map((p) => p.split)),
    });
    const pb = preset.off.length > 0 ? sideOf(preset.off) : null;
    const pa = preset.on.length > 0 ? sideOf(preset.on) : null;
    return {
      preset:
        pb && pa
          ? {
              preset: 'echo-trap',
              backend,
              iterations: s.presetIterations,
              before: pb,
              after: pa,
              speedup:
                pa.secondsPerIteration > 0
                  ? Math.round((100 * pb.secondsPerIteration) / pa.secondsPerIteration) / 100
                  : 0,
            }
          : null,
      decoding: {
        backend,
        size: 'nano',
        rows: s.decode.rows,
        promptTokens: s.decode.prompt,
        newTokens: s.decode.newTokens,
        beforeTokensPerSec: before,
        afterTokensPerSec: after,
        speedup: before > 0 ? Math.round((100 * after) / before) / 100 : 0,
      },
      switches: [...FAST_PATH_NOTES],
    };
  } finally {
    setFastPaths(true);
  }
}
