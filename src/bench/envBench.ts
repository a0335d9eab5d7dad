// Environment side of the benchmark: env steps per second per family (MiniGrid through its
// own bench, the other families with the same seeded random policy), and the cost of the env
// path a naive design would take — one message per env step — against the playground's one
// message per turn for the whole batch (workers/workerEnvPool.ts), both over a real
// MessageChannel so the async boundary is paid as in the browser.
import { Rng } from '../core/rng.js';
import { benchMinigrid } from '../envs/minigrid/bench.js';
import { envIds, envSpec } from '../envs/registry.js';
import type { EnvSpec, TextEnv } from '../envs/types.js';

export interface EnvRate {
  family: string;
  id: string;
  steps: number;
  stepsPerSec: number;
}

/** The first registered id of every family. */
export function familyIds(): string[] {
  const seen = new Map<string, string>();
  for (const id of envIds()) {
    const f = envSpec(id).family;
    if (!seen.has(f)) seen.set(f, id);
  }
  return [...seen.values()];
}

/** A seeded random action: a valid one when the env lists them, else a search of instruction words. */
function randomAction(env: TextEnv, rng: Rng): string {
  const valid = env.validActions();
  if (valid && valid.length > 0) return rng.choice(valid);
  const words = env.instruction().split(' ');
  return `search[${rng.shuffle(words).slice(0, rng.int(2, 6)).join(' ')}]`;
}

function measure(spec: EnvSpec, steps: number, seed: number): EnvRate {
  const env = spec.make();
  const rng = new Rng(seed).fork(spec.id);
  let episode = seed;
  env.reset(episode);
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) {
    if (env.step(randomAction(env, rng)).done) env.reset(++episode);
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    family: spec.family,
    id: spec.id,
    steps,
    stepsPerSec: Math.round(steps / Math.max(seconds, 1e-9)),
  };
}

/** Steps per second of one id per family (random policy, text observation every step, one thread). */
export function benchEnvFamilies(steps: number, seed = 0): EnvRate[] {
  const ids = familyIds();
  const mini = ids.filter((id) => envSpec(id).family.startsWith('minigrid'));
  const fromMinigrid = benchMinigrid({ ids: mini, steps, expertEpisodes: 0, seed }).rows.map((r) => ({
    family: r.family,
    id: r.id,
    steps: r.steps,
    stepsPerSec: r.stepsPerSec,
  }));
  const others = ids.filter((id) => !mini.includes(id)).map((id) => measure(envSpec(id), steps, seed));
  return [...fromMinigrid, ...others];
}

export interface EnvPathResult {
  env: string;
  slots: number;
  turns: number;
  actionsPerTurn: number;
  /** Env steps/s calling the envs directly (no boundary). */
  directStepsPerSec: number;
  /** One message per turn carrying every slot's actions (the playground's pool). */
  perTurnStepsPerSec: number;
  /** One message per env step (the naive path). */
  perStepStepsPerSec: number;
}

type Request = { id: number; work: { slot: number; actions: string[] }[] };

/** Envs behind a MessageChannel: each message carries some (slot, actions) pairs. */
function channelServer(envs: TextEnv[]) {
  const channel = new MessageChannel();
  channel.port2.onmessage = (e: MessageEvent<Request>) => {
    const results = e.data.work.map(({ slot, actions }) =>
      actions.map((a) => (envs[slot] as TextEnv).step(a).observation.length),
    );
    channel.port2.postMessage({ id: e.data.id, results });
  };
  const pending = new Map<number, () => void>();
  channel.port1.onmessage = (e: MessageEvent<{ id: number }>) => {
    pending.get(e.data.id)?.();
    pending.delete(e.data.id);
  };
  let next = 0;
  return {
    send(work: Request['work']): Promise<void> {
      const id = next++;
      return new Promise<void>((resolve) => {
        pending.set(id, resolve);
        channel.port1.postMessage({ id, work });
      });
    },
    close() {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/**
 * Steps `slots` envs of `envId` for `turns` turns of `actionsPerTurn` pre-drawn actions each,
 * three ways: directly, one message per turn, one message per step. Envs are reset at the start
 * only (episodes that end keep receiving actions, which the envs treat as steps after the end;
 * every path does the same work).
 */
export async function benchEnvPath(
  envId: string,
  slots: number,
  turns: number,
  actionsPerTurn: number,
  seed = 0,
): Promise<EnvPathResult> {
  const spec = envSpec(envId);
  const rng = new Rng(seed).fork('env-path');
  const probe = spec.make();
  probe.reset(seed);
  const plan = Array.from({ length: turns }, () =>
    Array.from({ length: slots }, () =>
      Array.from({ length: actionsPerTurn }, () => randomAction(probe, rng)),
    ),
  );
  const steps = turns * slots * actionsPerTurn;
  const fresh = () =>
    Array.from({ length: slots }, (_, i) => {
      const env = spec.make();
      env.reset(seed + i, i);
      return env;
    });
  const rate = (ms: number) => Math.round((1000 * steps) / Math.max(ms, 1e-6));

  let envs = fresh();
  let t0 = performance.now();
  for (const turn of plan)
    for (let slot = 0; slot < slots; slot++)
      for (const a of turn[slot] as string[]) (envs[slot] as TextEnv).step(a);
  const direct = rate(performance.now() - t0);

  envs = fresh();
  let server = channelServer(envs);
  await server.send([]); // the channel's first round trip sets it up: not timed
  t0 = performance.now();
  for (const turn of plan) await server.send(turn.map((actions, slot) => ({ slot, actions })));
  const perTurn = rate(performance.now() - t0);
  server.close();

  envs = fresh();
  server = channelServer(envs);
  await server.send([]);
  t0 = performance.now();
  for (const turn of plan)
    for (let slot = 0; slot < slots; slot++)
      for (const a of turn[slot] as string[]) await server.send([{ slot, actions: [a] }]);
  const perStep = rate(performance.now() - t0);
  server.close();

  return {
    env: envId,
    slots,
    turns,
    actionsPerTurn,
    directStepsPerSec: direct,
    perTurnStepsPerSec: perTurn,
    perStepStepsPerSec: perStep,
  };
}
