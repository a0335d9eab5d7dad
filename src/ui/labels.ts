// The names a person reads for the ids the config stores: "DoorKey 5×5" for minigrid/DoorKey-5x5,
// "StarPO (GRPO)" for starpo-grpo (the algorithm table's label), as the setup panel shows them.
import type { Config } from '../core/config.js';
import { ALGORITHMS } from '../core/variants/algorithms.js';

const ENV_NAMES: Readonly<Record<string, string>> = { 'webshop/lite': 'WebShop-lite' };

/** An environment id as words: its name after the family, sizes as "5×5". */
export function envName(id: string): string {
  const named = ENV_NAMES[id];
  if (named) return named;
  const name = id.split('/').pop() ?? id;
  return name.replace(/-(\d+)x(\d+)$/, ' $1×$2').replace(/-/g, ' ');
}

/** An algorithm's label in the algorithm table ("StarPO (GRPO)"). */
export function algorithmName(algo: Config['algorithm'] | string): string {
  return ALGORITHMS[algo as Config['algorithm']]?.label ?? algo;
}
