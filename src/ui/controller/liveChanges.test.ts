// Live changes reach the trainer once per pause in typing, only for live fields of an active run,
// and each debouncer keeps its own queue (no state shared between controllers).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../core/config.js';
import { useApp } from '../store/index.js';
import { liveChanges } from './liveChanges.js';

beforeEach(() => {
  vi.useFakeTimers();
  useApp.getState().setRunStatus('running');
});
afterEach(() => {
  vi.useRealTimers();
  useApp.getState().setRunStatus('idle');
});

describe('liveChanges', () => {
  it('sends the changes typed within the pause as one, after 400 ms of quiet', () => {
    const sent: Partial<Config>[] = [];
    const live = liveChanges((c) => {
      sent.push(c);
      return Promise.resolve();
    });
    live.apply('temperature', 0.9);
    vi.advanceTimersByTime(300);
    live.apply('temperature', 0.8);
    live.apply('entropyCoef', 0.002);
    vi.advanceTimersByTime(399);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ temperature: 0.8, entropyCoef: 0.002 }]);
    live.apply('clipLow', 0.1);
    vi.advanceTimersByTime(400);
    expect(sent).toEqual([{ temperature: 0.8, entropyCoef: 0.002 }, { clipLow: 0.1 }]);
  });

  it('ignores fields that are not live, runs that are not active, and what cancel dropped', () => {
    const send = vi.fn(() => Promise.resolve());
    const live = liveChanges(send);
    live.apply('seed', 3);
    useApp.getState().setRunStatus('finished');
    live.apply('temperature', 0.5);
    useApp.getState().setRunStatus('paused');
    live.apply('temperature', 0.7);
    live.cancel();
    vi.advanceTimersByTime(1000);
    expect(send).not.toHaveBeenCalled();
  });

  it('keeps one queue per debouncer', () => {
    const a = vi.fn(() => Promise.resolve());
    const b = vi.fn(() => Promise.resolve());
    const liveA = liveChanges(a);
    const liveB = liveChanges(b);
    liveA.apply('temperature', 0.5);
    liveB.apply('entropyCoef', 0.01);
    vi.advanceTimersByTime(400);
    expect(a).toHaveBeenCalledWith({ temperature: 0.5 });
    expect(b).toHaveBeenCalledWith({ entropyCoef: 0.01 });
  });

  it('says in the notice when the trainer refuses a change', async () => {
    useApp.getState().setNotice(null);
    const live = liveChanges(() => Promise.reject(new Error('no run')));
    live.apply('temperature', 0.5);
    await vi.advanceTimersByTimeAsync(400);
    expect(useApp.getState().notice).toEqual({ kind: 'error', text: 'no run' });
  });
});
