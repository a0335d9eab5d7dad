// What the fault banners say: the pause after repeated NaN/Inf iterations shows until a live
// change; a worker restart names the fault, the backend and the iteration the run continues from;
// a second worker that failed beside a run without a critic is a notice.
import { describe, expect, it } from 'vitest';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { haltEvent } from '../runs/haltEvent.js';
import { noticeText, recoveryText } from './FaultBanner.js';

const fault = (iteration: number, consecutive: number, pause = false): TrainerEvent => ({
  type: 'error',
  iteration,
  consecutive,
  message: 'non-finite update skipped',
  ...(pause ? { pause, suggestion: 'lower the learning rate (now 0.01) to 0.003' } : {}),
});

describe('haltEvent', () => {
  it('is the pausing fault until a live change comes after it', () => {
    expect(haltEvent([fault(1, 1), fault(2, 2)])).toBeNull();
    const halted = [fault(1, 1), fault(2, 2), fault(3, 3, true)];
    expect(haltEvent(halted)?.iteration).toBe(3);
    expect(haltEvent([...halted, { type: 'live', iteration: 4, changes: { lr: 0.003 } }])).toBeNull();
  });
});

describe('recoveryText', () => {
  const base = { message: 'the WebGPU device was lost (destroyed)', hadRun: true, backend: 'wasm' };
  it('names the move to WASM and the checkpoint iteration', () => {
    expect(recoveryText({ ...base, state: 'recovered', fault: 'gpu-lost', iteration: 4 })).toBe(
      'The WebGPU device was lost (destroyed). The run moved to the wasm backend and continues from its last checkpoint, at iteration 4.',
    );
    expect(
      recoveryText({
        ...base,
        state: 'recovering',
        fault: 'gpu-error',
        iteration: 4,
        backend: null,
        message: '',
      }),
    ).toBe('The GPU failed during training. Moving to the WASM backend…');
  });
  it('says when a crashed run starts over and when no run was going', () => {
    expect(
      recoveryText({
        ...base,
        message: 'the train worker was killed',
        state: 'recovered',
        fault: 'crash',
        iteration: 0,
        backend: 'webgpu',
      }),
    ).toBe(
      'The train worker was killed. It was restarted and the run continues on webgpu from the start (no checkpoint had been saved yet).',
    );
    expect(
      recoveryText({ ...base, state: 'recovered', fault: 'gpu-lost', iteration: 0, hadRun: false }),
    ).toMatch(/restarted on wasm; no run was in progress\.$/);
  });
});

describe('a second worker that failed', () => {
  it('with the critic: the run restarts on its backend from its checkpoint', () => {
    const note = {
      state: 'recovered' as const,
      fault: 'second-worker' as const,
      message: 'the run’s second worker, which held its critic, failed (critic worker: injected crash)',
      iteration: 6,
      backend: 'wasm',
      hadRun: true,
    };
    expect(recoveryText(note)).toBe(
      'The run’s second worker, which held its critic, failed (critic worker: injected crash). It was restarted and the run continues on wasm from its last checkpoint, at iteration 6.',
    );
    expect(recoveryText({ ...note, state: 'recovering', backend: null, message: '' })).toBe(
      'The run’s second worker failed. Restarting the run’s workers…',
    );
  });
  it('beside a run without a critic: a notice, the run unchanged', () => {
    expect(
      noticeText('the second worker failed; this thread takes its share: reference worker: crashed'),
    ).toBe(
      'The second worker failed; this thread takes its share: reference worker: crashed. The run goes on with the same numbers, only slower.',
    );
  });
});
