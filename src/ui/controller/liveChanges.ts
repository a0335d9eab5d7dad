// Live settings (the fields marked `live` in core/config.ts FIELDS) go to the running trainer as
// the user types, gathered over a short pause so one edit is one change event, not one per key.
import { type Config, FIELDS } from '../../core/config.js';
import { useApp } from '../store/index.js';

const LIVE = new Set(FIELDS.filter((f) => f.live).map((f) => f.key));
/** Quiet time after the last keystroke before the changes are sent. */
const DEBOUNCE_MS = 400;

export interface LiveChanges {
  /** Queues a live setting for the running trainer; anything else, or no run, is ignored. */
  apply(key: string, value: unknown): void;
  /** Drops what is queued (the controller stopped). */
  cancel(): void;
}

/** A debouncer that hands the gathered changes to `send`. */
export function liveChanges(send: (changes: Partial<Config>) => Promise<void> | undefined): LiveChanges {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: Partial<Config> = {};
  return {
    apply(key, value) {
      const st = useApp.getState().runStatus;
      if (!LIVE.has(key) || !(st === 'running' || st === 'paused')) return;
      pending = { ...pending, [key]: value };
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const changes = pending;
        pending = {};
        timer = null;
        send(changes)?.catch((err: Error) =>
          useApp.getState().setNotice({ kind: 'error', text: err.message }),
        );
      }, DEBOUNCE_MS);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = {};
    },
  };
}
