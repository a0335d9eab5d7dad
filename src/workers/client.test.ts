// The client's promise to its callers: a request in flight when the client is disposed rejects
// (seeds side by side stops a lane whose start has not been answered yet; a hanging start kept
// the whole group "running" forever).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TrainClient } from './client.js';

/** A worker that takes messages and never answers, as a busy or still-loading worker does. */
class SilentWorker {
  terminated = false;
  posted: unknown[] = [];
  addEventListener(): void {}
  postMessage(m: unknown): void {
    this.posted.push(m);
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('TrainClient.dispose', () => {
  beforeEach(() => vi.stubGlobal('Worker', SilentWorker));
  afterEach(() => vi.unstubAllGlobals());

  it('rejects a request still waiting for its reply and terminates the worker', async () => {
    const client = new TrainClient();
    const init = client.init('wasm');
    await Promise.resolve();
    client.dispose();
    await expect(init).rejects.toThrow('the train worker was closed');
  });
});
