// The base model a run starts from, as the train worker is told it: the setup's choice
// (store/baseChoice.ts) turned into the shipped model's URLs, a stored run's checkpoint read from
// IndexedDB, or fresh weights. Runs from the transport bar and in-browser sweeps both use it.
import type { Config } from '../../core/config.js';
import type { BaseChoice } from '../../workers/protocol.js';
import * as db from '../runs/runsDb.js';
import { chooseBase } from '../store/baseChoice.js';
import { useApp } from '../store/index.js';

/** The base model a run of `config` starts from (the setup's choice; sweeps use it too). */
export async function baseFor(
  config: Config,
): Promise<{ choice: BaseChoice; label: string; untrained: boolean }> {
  const { baseChoice, baseModels, storedRuns } = useApp.getState();
  const chosen = chooseBase(baseChoice, config.env, config.modelSize, baseModels, storedRuns);
  if (chosen.kind === 'model') {
    const m = chosen.entry;
    const url = (p: string) => new URL(`models/${p}`, document.baseURI).href;
    return {
      choice: { kind: 'url', id: m.id, manifestUrl: url(m.manifest), blobUrl: url(m.blob) },
      label: m.id,
      untrained: false,
    };
  }
  if (chosen.kind === 'run') {
    const cp = await db.getCheckpoint(chosen.run.id);
    if (!cp) throw new Error(`the checkpoint of "${chosen.run.name}" is no longer stored`);
    return {
      choice: { kind: 'checkpoint', id: chosen.run.id, manifest: cp.manifest, blob: cp.blob },
      label: `checkpoint of ${chosen.run.id}`,
      untrained: false,
    };
  }
  return { choice: { kind: 'fresh' }, label: `untrained ${config.modelSize}`, untrained: true };
}
