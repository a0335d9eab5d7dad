// A CriticPort whose other end is criticService in this thread (tests): each message and answer is
// copied as postMessage copies it and delivered on a later turn, so the run's side sees what it
// sees of a worker — only without a second thread. `crashAfter` messages, it fails as a worker
// that crashed does: the port reports an error and answers nothing more.
import type { CriticPort, FromCritic } from '../core/rl/criticPort.js';
import { criticService, type ServiceOptions } from '../core/rl/criticService.js';

export function pairPort(options: ServiceOptions & { crashAfter?: number } = {}): CriticPort {
  let onAnswer: (msg: FromCritic) => void = () => {};
  let onError: (err: Error) => void = () => {};
  let open = true;
  let posted = 0;
  const handle = criticService((msg) => {
    const copy = structuredClone(msg);
    setTimeout(() => open && onAnswer(copy), 0);
  }, options);
  return {
    post(msg) {
      if (!open) return;
      if (++posted > (options.crashAfter ?? Number.POSITIVE_INFINITY)) {
        open = false;
        setTimeout(() => onError(new Error('the worker crashed')), 0);
        return;
      }
      const copy = structuredClone(msg);
      setTimeout(() => open && handle(copy), 0);
    },
    listen(answer, error) {
      onAnswer = answer;
      onError = error;
    },
    terminate() {
      open = false;
    },
  };
}
