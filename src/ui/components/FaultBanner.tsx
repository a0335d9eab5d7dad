// Fault banners (issue 10): a run paused after repeated NaN/Inf iterations, with the trainer's
// explanation and suggested change; a run moved to WASM after the WebGPU device was lost or
// failed, or continued after the train worker or its critic's worker crashed — each saying from
// which iteration; and a run whose second worker failed while this one could take its share.
import { isGpuFault } from '../../workers/protocol.js';
import { haltEvent } from '../runs/haltEvent.js';
import { useApp } from '../store/index.js';
import type { RecoveryNote } from '../store/runSlice.js';

/** What happened, when the fault came without a message. */
const FAULT_WORDS: Record<RecoveryNote['fault'], string> = {
  'gpu-lost': 'The WebGPU device was lost',
  'gpu-error': 'The GPU failed during training',
  crash: 'The train worker crashed',
  'second-worker': 'The run’s second worker failed',
};

/** A worker's message as a sentence: capitalised, and ended with a full stop unless it has one. */
const asSentence = (said: string) =>
  `${said.charAt(0).toUpperCase()}${said.slice(1)}${/[.!?]$/.test(said) ? '' : '.'}`;

/** The banner's sentence for a worker restart. */
export function recoveryText(n: RecoveryNote): string {
  // The worker's message says what happened ("the WebGPU device was lost (destroyed)").
  const what = asSentence(n.message || FAULT_WORDS[n.fault]);
  const gpu = isGpuFault(n.fault);
  const restarting =
    n.fault === 'second-worker' ? 'Restarting the run’s workers' : 'Restarting the train worker';
  if (n.state === 'recovering') return `${what} ${gpu ? 'Moving to the WASM backend' : restarting}…`;
  if (!n.hadRun)
    return `${what} The train worker was restarted on ${n.backend ?? 'another backend'}; no run was in progress.`;
  const from =
    n.iteration > 0
      ? `from its last checkpoint, at iteration ${n.iteration}`
      : 'from the start (no checkpoint had been saved yet)';
  return gpu
    ? `${what} The run moved to the ${n.backend ?? 'WASM'} backend and continues ${from}.`
    : `${what} It was restarted and the run continues on ${n.backend ?? 'the same backend'} ${from}.`;
}

/** The notice's sentence: what the worker said, and what it means for the run. */
export function noticeText(message: string): string {
  return `${asSentence(message)} The run goes on with the same numbers, only slower.`;
}

/** The three banners; each renders nothing when there is nothing to say. */
export function FaultBanner() {
  const events = useApp((s) => s.events);
  const recovery = useApp((s) => s.recovery);
  const setRecovery = useApp((s) => s.setRecovery);
  const notice = useApp((s) => s.runNotice);
  const setNotice = useApp((s) => s.setRunNotice);
  const halt = haltEvent(events);
  return (
    <>
      {recovery ? (
        <div
          className={`banner ${recovery.state === 'recovering' ? 'banner-warn' : 'banner-info'}`}
          role="status"
          data-testid="recovery-banner"
          data-state={recovery.state}
          data-fault={recovery.fault}
          data-backend={recovery.backend ?? ''}
          data-iteration={recovery.iteration}
        >
          {recoveryText(recovery)}
          <button type="button" onClick={() => setRecovery(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {notice ? (
        <div className="banner banner-info" role="status" data-testid="run-notice">
          {noticeText(notice)}
          <button type="button" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {halt ? (
        <div className="banner banner-error" role="alert" data-testid="fault-pause-banner">
          <strong>Paused</strong> after {halt.consecutive} non-finite iterations in a row (the last at
          iteration {halt.iteration}: {halt.message}). Each was skipped and the last good weights restored;
          repeated NaN/Inf usually means the updates are too large.{' '}
          <span data-testid="fault-suggestion">
            Suggested change: {halt.suggestion ?? 'lower the learning rate'}.
          </span>{' '}
          Change it in the setup panel (it applies to this run), then press Resume.
        </div>
      ) : null}
    </>
  );
}
