// The typed messages between the UI thread and the train worker (DESIGN §2). Every message is
// a discriminated union member; both sides switch exhaustively on `type`.
import type { BackendPreference, BackendReport } from './backendInfo.js';

/** UI → train worker. `id` pairs a request with its reply. */
export type ToTrainWorker =
  | { type: 'init'; id: number; backend: BackendPreference }
  | { type: 'selfCheck'; id: number; backends: BackendPreference[]; steps: number; seed: number };

/** Losses of a short training run on one backend, for cross-checking backends. */
export interface SelfCheckResult {
  backend: string;
  losses: number[];
  ms: number;
}

/** Train worker → UI. */
export type FromTrainWorker =
  | { type: 'ready'; id: number; report: BackendReport }
  | { type: 'selfCheck'; id: number; results: SelfCheckResult[]; maxAbsDiff: number }
  | { type: 'error'; id: number | null; message: string };

/** Throws at compile time when a switch over a union misses a member. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(x)}`);
}
