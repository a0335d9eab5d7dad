// The page as loaded shows the trap: the echo-trap preset's config, resolved as the CLI (and the
// page: core/resolve.ts, the same base model) resolve it, is round 11's confirmation run of seed
// 303 but for its checkpoints (which change no number) and its backend (auto: WASM without WebGPU), and that stored run is trapped at
// iteration 122 by the pre-registered rule — the rows the page gives on WASM (parity.spec.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictOfRows } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { plainSentence } from '../../core/metrics/verdict.js';
import { PRESETS } from '../../core/presets.js';
import { differingFields } from '../runDir.js';
import { readRecordRows } from '../runRecords.js';
import { baseLookup, resolveTrainConfig } from '../trainConfig.js';

const RUN = 'results/echo-trap/round11/confirm-vanilla/custom/starpo-grpo/seed-303';

describe('the echo-trap preset’s default seed', () => {
  it('is the recorded confirmation run of seed 303, trapped at iteration 122', async () => {
    const config = await resolveTrainConfig({ preset: 'echo-trap' }, baseLookup(undefined, undefined));
    expect(config.seed).toBe(303);
    const stored = JSON.parse(await readFile(join(RUN, 'config.json'), 'utf8'));
    // The page's backend is auto (WASM where there is no WebGPU: Node's auto is WASM); the run's was wasm.
    expect(differingFields(stored, config)).toEqual(['backend', 'checkpointEvery']);
    expect([config.backend, stored.backend]).toEqual(['auto', 'wasm']);
    const rows = await readRecordRows<MetricRow>(RUN, 'metrics.jsonl');
    const v = verdictOfRows(config, rows);
    expect(v).toMatchObject({ verdict: 'trapped', collapseIteration: 122 });
    expect(plainSentence(v)).toMatch(/^Trapped: success rose from \d+% to 70%, then fell to 0%/);
    expect(PRESETS['echo-trap']?.note).toContain('This seed (303) was trapped at iteration 122');
  });
});
