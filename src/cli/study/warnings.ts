// A round's warning record (core/metrics/warningRates.ts) from its stored runs, nothing rerun:
// every detector signal's firings on the frozen runs (the frozen null and the confirmation's
// frozen control, a study's frozen arm, and any other folders of frozen runs named), on the
// holding learner's runs (when its null held), and in the trapped runs before their collapse.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { WARNING_RATES_FORMAT, type WarningRates } from '../../core/metrics/warningRates.js';
import { finishedRuns } from './calibrate.js';
import { judgeRun, type RoundRun, signalRates } from './round.js';

/** The frozen cells of a round directory, by the names every round uses (a study names its own). */
const FROZEN_CELLS = ['null-frozen', 'confirm-frozen', 'study-frozen'];
const isHolding = (cell: string) => cell.startsWith('null-hold');
/**
 * A holding null's runs count as a learner that held only when it held: flagged in at most 1 of
 * its runs (issue 38's rule for it). Round 11's PPO at 7e-4 rose and fell in 5 of 8: not counted.
 */
const HOLDING_MAX_FLAGGED = 1;

/** Where else the frozen runs are: a study's frozen arm, folders of frozen runs at the same shape. */
export interface FrozenToo {
  cell?: string;
  /** Folders of seed-N runs of a frozen control (another round's, at this round's shape). */
  dirs?: readonly string[];
}

/** The record of the runs under `dir` (one sub-directory per cell), described by `source`. */
export async function warningRatesOf(
  dir: string,
  source: string,
  too: FrozenToo = {},
): Promise<WarningRates> {
  const frozen: RoundRun[] = [];
  const hold: RoundRun[] = [];
  const trapped: RoundRun[] = [];
  for (const d of too.dirs ?? [])
    frozen.push(...(await finishedRuns(d, '.')).map((r) => judgeRun('frozen', r)));
  const isFrozen = (cell: string) => FROZEN_CELLS.includes(cell) || cell === too.cell;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const runs = (await finishedRuns(join(dir, e.name), dir)).map((r) => judgeRun(e.name, r));
    if (isFrozen(e.name)) frozen.push(...runs);
    else if (isHolding(e.name)) {
      if (runs.filter((r) => r.trapped).length <= HOLDING_MAX_FLAGGED) hold.push(...runs);
    } else trapped.push(...runs.filter((r) => r.trapped && r.collapseIteration !== null));
  }
  const rates = signalRates(frozen, hold, trapped);
  return { format: WARNING_RATES_FORMAT, version: 1, source, rates };
}
