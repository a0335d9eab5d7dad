// A CriticPort whose other end is criticService in this thread (tests): each message and answer is
// copied as postMessage copies it and delivered on a later turn, so the run's side sees what it
// sees of a worker — only without a second thread.
import type { CriticPort, FromCritic } from './criticPort.js';
import { criticService, type ServiceOptions } from './criticService.js';

export function pairPort(options: ServiceOptions = {}): CriticPort {
  let onAnswer: (msg: FromCritic) => void = () => {};
  let open = true;
  const handle = criticService((msg) => {
    const copy = structuredClone(msg);
    setTimeout(() => open && onAnswer(copy), 0);
  }, options);
  return {
    post(msg) {
      const copy = structuredClone(msg);
      setTimeout(() => open && handle(copy), 0);
    },
    listen(answer) {
      onAnswer = answer;
    },
    terminate() {
      open = false;
    },
  };
}
