// The per-backend parts of `npm run bench` (harness.ts puts them together): on cpu and wasm in
// this process, each backend's matrix-product rate (the roofline's roof), rollout tokens/s,
// update and scoring time and kernels per training step for each size, then the backend probe;
// webgpu in a child process on the software adapter (Dawn on SwiftShader) when one is
// installed, its rows labelled correctness only. Node only.
import type { ModelSize } from '../core/model/config.js';
import { disposeModel } from '../core/model/params.js';
import { Rng } from '../core/rng.js';
import type { Tokenizer } from '../core/tokenizer.js';
import type { BackendName } from '../workers/backend.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { PROBE_SHAPE, probeBackends } from '../workers/probe.js';
import {
  type StepShape,
  stepModel,
  syntheticMinibatch,
  timeSteps,
  trainingStep,
} from '../workers/stepTiming.js';
import { countDispatches } from './dispatch.js';
import type { GpuChildSettings } from './gpuChild.js';
import type { GpuPart } from './gpuPart.js';
import { runGpuChild, swiftshaderIcd } from './nodeGpu.js';
import { benchRollout } from './rolloutBench.js';
import { MATMUL_SHAPES, type MatmulRate, measureMatmul } from './roofline.js';
import type { BackendEntry, BenchResults, DispatchRow, ModelRow, ProbeRow, RolloutRow } from './schema.js';
import type { BenchSettings } from './settings.js';

const SOFTWARE_LABEL = 'software adapter (SwiftShader), correctness only';

/** One backend's matrix-product rate, for the roofline. */
export interface MatmulEntry {
  backend: BackendName;
  label: string;
  software: boolean;
  rate: MatmulRate;
}

/** The rows the backends add, in the order they were measured (cpu, wasm, then webgpu). */
export interface BackendParts {
  backends: BackendEntry[];
  rollout: RolloutRow[];
  model: ModelRow[];
  dispatch: DispatchRow[];
  probe: ProbeRow[];
  matmul: MatmulEntry[];
  kernelCheck: BenchResults['kernelCheck'];
}

/** Makes `backend` the active tfjs backend; '' on success, else why not. */
export async function select(backend: BackendName): Promise<string> {
  try {
    await setupNodeBackend(backend);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

/** Kernels of one training step on the active cpu/wasm backend (no fused path there). */
async function kernelRow(backend: BackendName, size: ModelSize, shape: StepShape): Promise<DispatchRow> {
  const { policy, optimizer } = stepModel(size, shape);
  const mb = syntheticMinibatch(new Rng(9), shape.rows, shape.T, shape.vocab);
  try {
    await trainingStep(policy, optimizer, mb);
    const c = await countDispatches(() => trainingStep(policy, optimizer, mb));
    return {
      backend,
      size,
      kind: 'trainingStep',
      rows: shape.rows,
      T: shape.T,
      unfused: c.dispatches,
      fused: null,
      reduction: null,
      topUnfused: c.byName,
      topFused: null,
    };
  } finally {
    optimizer.dispose();
    disposeModel(policy);
  }
}

/** One of cpu/wasm, made active: its roof, rollout, and each size's step times and kernels. */
async function benchInProcess(
  backend: 'cpu' | 'wasm',
  s: BenchSettings,
  tok: Tokenizer,
  parts: BackendParts,
  log: (line: string) => void,
): Promise<void> {
  // The roof: a plain 2-D product's rate on this backend, in this run (the JS CPU backend is
  // ~20× slower than WASM: its two smaller shapes, one product a round, are enough there).
  log(`bench: ${backend} matrix-product rate`);
  parts.matmul.push({
    backend,
    label: backend === 'wasm' ? 'WASM (SIMD)' : 'JS CPU',
    software: false,
    rate: backend === 'cpu' ? await measureMatmul(MATMUL_SHAPES.slice(2), 3, 1) : await measureMatmul(),
  });
  log(`bench: ${backend} rollout`);
  const rows = backend === 'cpu' ? s.cpu.rolloutRows : s.rollout.rows;
  const r = await benchRollout(tok, 'nano', rows, s.rollout.prompt, s.rollout.newTokens);
  parts.rollout.push({ backend, ...r });
  const shape = { ...s.step, vocab: tok.size };
  for (const size of backend === 'cpu' ? s.sizes.filter((z) => s.cpu.sizes.includes(z)) : s.sizes) {
    log(`bench: ${backend} ${size} update and scoring`);
    const t = await timeSteps(size, shape, s.reps);
    parts.model.push({
      backend,
      size,
      rows: shape.rows,
      T: shape.T,
      scoreRows: shape.scoreRows,
      fused: false,
      ...t,
    });
    parts.dispatch.push(await kernelRow(backend, size, shape));
  }
}

/** The cpu and wasm parts (each requested one that loads), then the probe over them. */
export async function benchCpuWasm(
  s: BenchSettings,
  tok: Tokenizer,
  log: (line: string) => void,
): Promise<BackendParts> {
  const parts: BackendParts = {
    backends: [],
    rollout: [],
    model: [],
    dispatch: [],
    probe: [],
    matmul: [],
    kernelCheck: { ran: false, ok: null, tolerance: 1e-4, rows: [], reason: '' },
  };
  for (const backend of ['cpu', 'wasm'] as const) {
    if (!s.backends.includes(backend)) {
      parts.backends.push({ backend, available: false, label: '', reason: 'not requested' });
      continue;
    }
    const reason = await select(backend);
    const label = backend === 'wasm' ? 'WASM (SIMD)' : 'JS CPU';
    parts.backends.push({ backend, available: reason === '', label, reason });
    if (reason === '') await benchInProcess(backend, s, tok, parts, log);
  }
  const cpuWasm = s.backends.filter((b): b is 'cpu' | 'wasm' => b !== 'webgpu');
  if (cpuWasm.length > 0) {
    log('bench: probe');
    const shape = s.quick ? { ...s.step, vocab: tok.size } : { ...PROBE_SHAPE, vocab: tok.size };
    parts.probe.push(
      ...(await probeBackends([s.sizes[0] ?? 'nano'], cpuWasm, { select, shape, reps: s.reps })),
    );
  }
  return parts;
}

/** The webgpu part into `parts`: a child process on the software adapter, or why there is none. */
export async function benchWebgpu(
  s: BenchSettings,
  parts: BackendParts,
  log: (line: string) => void,
): Promise<void> {
  const icd = swiftshaderIcd();
  const unavailable = (reason: string, checkReason: string) => {
    parts.backends.push({ backend: 'webgpu', available: false, label: '', reason });
    parts.kernelCheck.reason = checkReason;
  };
  if (!s.backends.includes('webgpu')) return unavailable('not requested', 'webgpu not requested');
  if (!icd) return unavailable('no SwiftShader Vulkan ICD found (set STARPO_VK_ICD)', 'no webgpu adapter');
  log('bench: webgpu (child process, software adapter)');
  try {
    const child: GpuChildSettings = {
      sizes: s.gpu.sizes,
      step: s.gpu.step,
      env: s.trainer.env,
      context: s.trainer.context,
    };
    const gpu = (await runGpuChild(
      ['webgpu', JSON.stringify(child)],
      icd,
      log,
      s.gpu.timeoutMs,
    )) as GpuPart & {
      probe: ProbeRow[];
    };
    const partial = (gpu as { partial?: boolean }).partial === true;
    parts.backends.push({
      backend: 'webgpu',
      available: true,
      label: SOFTWARE_LABEL,
      reason: partial ? `partial: the child ran out of its ${s.gpu.timeoutMs / 1000} s` : '',
    });
    parts.model.push(...gpu.model);
    if (gpu.matmul)
      parts.matmul.push({ backend: 'webgpu', label: SOFTWARE_LABEL, software: true, rate: gpu.matmul });
    parts.dispatch.push(...gpu.dispatch);
    parts.probe.push(...gpu.probe);
    parts.kernelCheck = gpu.kernelCheck;
  } catch (err) {
    unavailable((err as Error).message, (err as Error).message);
  }
}
