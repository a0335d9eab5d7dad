// A run's second worker as a thread of its own (issue 40), the Node side of the page's critic
// worker: a CriticPort over worker_threads for RemoteCritic, or for RemoteReference in a run
// without a critic. The thread runs criticThread.ts through the
// same TypeScript loader as this process (tsx), on the run's backend.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CriticHostFactory } from '../../core/rl/criticHost.js';
import { type CriticPort, remoteCritic, remoteReference } from '../../core/rl/criticPort.js';
import type { SecondWorker } from '../../core/rl/schedule.js';

/** The ESM entry of tsx's loader API (the package's `tsx/esm/api` import condition). */
function tsxLoaderUrl(): string {
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(pkg), 'dist/esm/api/index.mjs')).href;
}

/** A port to a new critic thread on `backend`. */
export function nodeCriticPort(backend: 'wasm' | 'cpu'): CriticPort {
  const entry = new URL('./criticThread.ts', import.meta.url).href;
  const loader = tsxLoaderUrl();
  const source = `import { register } from ${JSON.stringify(loader)}; register(); await import(${JSON.stringify(entry)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    workerData: { backend },
  });
  return {
    post: (msg) => worker.postMessage(msg),
    listen(onAnswer, onError) {
      worker.on('message', onAnswer);
      worker.on('error', onError);
      worker.on('exit', (code) => {
        if (code !== 0) onError(new Error(`the critic thread exited with code ${code}`));
      });
    },
    terminate: () => void worker.terminate(),
  };
}

/** Critics in worker threads of their own, on `backend`. */
export function nodeCritic(backend: 'wasm' | 'cpu'): CriticHostFactory {
  return remoteCritic(() => nodeCriticPort(backend));
}

/** A run's second worker as a thread on `backend`: its critic, or a copy of its reference. */
export function nodeSecondWorker(backend: 'wasm' | 'cpu'): SecondWorker {
  return {
    criticHost: nodeCritic(backend),
    referenceHost: remoteReference(() => nodeCriticPort(backend)),
  };
}
