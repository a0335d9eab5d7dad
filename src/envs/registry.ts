// All registered environments, keyed by id. Each family exports its own list of specs.
import { banditEnvs } from './bandit/index.js';
import { frozenLakeEnvs } from './frozenlake/index.js';
import { minigridEnvs } from './minigrid/index.js';
import { sokobanEnvs } from './sokoban/index.js';
import type { EnvSpec, TextEnv } from './types.js';
import { webshopEnvs } from './webshop/index.js';

const ALL: readonly EnvSpec[] = [
  ...minigridEnvs,
  ...webshopEnvs,
  ...banditEnvs,
  ...sokobanEnvs,
  ...frozenLakeEnvs,
];

export const envRegistry: ReadonlyMap<string, EnvSpec> = new Map(ALL.map((s) => [s.id, s]));

/** Every registered id, in registration order. */
export function envIds(): string[] {
  return ALL.map((s) => s.id);
}

/** The spec for `id`, or an error that lists close alternatives. */
export function envSpec(id: string): EnvSpec {
  const spec = envRegistry.get(id);
  if (spec) return spec;
  const needle = id.toLowerCase();
  const close = envIds().filter((k) => k.toLowerCase().includes(needle.split('/').pop() ?? ''));
  const hint = close.length > 0 ? ` Did you mean: ${close.slice(0, 5).join(', ')}?` : '';
  throw new Error(`unknown environment id "${id}".${hint}`);
}

/**
 * The env a run on `id` is evaluated on: its held-out variant where it has one (WebShop-lite's
 * eval goals), else `id` itself (evaluation then uses held-out start seeds). Every trainer —
 * browser worker, CLI, bench, soak — evaluates on this one.
 */
export function evalEnvId(id: string): string {
  return envSpec(id).heldOutId ?? id;
}

/** A fresh instance of environment `id`. */
export function makeEnv(id: string): TextEnv {
  return envSpec(id).make();
}
