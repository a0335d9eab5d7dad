// A preset means the same thing in the page and on the command line: over the whole preset table,
// the page's setup (the store, the shipped models index, the base model it picks) resolves to the
// config a Node run of `--preset <name>` resolves (workers/node indexBaseLayer, the CLI's base
// layer), field for field, on WASM.
import { describe, expect, it } from 'vitest';
import { BACKEND_MEMORY_BYTES } from '../../core/model/memory.js';
import { PRESETS } from '../../core/presets.js';
import { layersEnv, resolveConfig } from '../../core/resolve.js';
import { envIds } from '../../envs/registry.js';
import { indexBaseLayer, readModelIndex } from '../../workers/node/baseModel.js';
import { useApp } from './index.js';

/** What `train --preset <name>` resolves (cli/trainConfig.ts resolveTrainConfig). */
async function nodeConfig(name: string) {
  const { env, modelSize } = layersEnv({ preset: name, edits: {} });
  const base = await indexBaseLayer(env, modelSize, undefined);
  return resolveConfig({ base, preset: name, edits: {} }, envIds(), {
    backend: 'wasm',
    bytes: BACKEND_MEMORY_BYTES.wasm,
  });
}

describe('every preset resolves to the same config in the page and in Node', () => {
  it.each(Object.keys(PRESETS))('%s', async (name) => {
    const s = useApp.getState();
    s.setBaseChoice('auto');
    s.setBaseModels(await readModelIndex());
    expect(useApp.getState().applyPreset(name)).toEqual([]);
    const page = useApp.getState().values;
    const node = await nodeConfig(name);
    expect(node.errors).toEqual([]);
    expect(page).toEqual(node.values);
  });
});
