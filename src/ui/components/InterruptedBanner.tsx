// Said on load: a run the last tab left running or paused (closed or reloaded), the iteration it
// reached, and a Resume from its last stored checkpoint (one is saved at least every 30 s). What
// resuming keeps and what it does not is said in the banner itself.
import { useController } from '../controller/context.js';
import { useApp } from '../store/index.js';

export function InterruptedBanner() {
  const interrupted = useApp((s) => s.interrupted);
  const setInterrupted = useApp((s) => s.setInterrupted);
  const status = useApp((s) => s.runStatus);
  const { resumeInterrupted } = useController();
  if (!interrupted) return null;
  const { id, name, iteration, checkpointAt, exact } = interrupted;
  const idle = status === 'idle' || status === 'finished' || status === 'failed';
  return (
    <div
      className="banner banner-info"
      role="status"
      data-testid="interrupted-banner"
      data-iteration={iteration}
      data-checkpoint={checkpointAt ?? ''}
      data-exact={exact}
    >
      “{name}” was interrupted at iteration {iteration}: its tab was closed or reloaded while it ran.{' '}
      {checkpointAt !== null ? (
        <>
          It can resume from its last checkpoint, at iteration {checkpointAt}; the iterations after it are run
          again.{' '}
          {exact
            ? 'The checkpoint holds the optimizer’s moments and the random streams too, so the run goes on exactly as it would have.'
            : 'This checkpoint predates saving the optimizer’s moments and the random streams: they start afresh there, so the curve from then on is a new draw, not the one the tab would have drawn.'}{' '}
          <button
            type="button"
            data-testid="interrupted-resume"
            disabled={!idle}
            title={idle ? '' : 'Stop the current run first'}
            onClick={() => void resumeInterrupted(id)}
          >
            Resume from iteration {checkpointAt}
          </button>
        </>
      ) : (
        'It saved no checkpoint, so it cannot resume; its rows are kept in the Runs tab.'
      )}{' '}
      <button type="button" data-testid="interrupted-dismiss" onClick={() => setInterrupted(null)}>
        Dismiss
      </button>
    </div>
  );
}
