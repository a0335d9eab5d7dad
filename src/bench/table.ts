// The readable side of the benchmark: bench/results.json as plain-text tables on stdout.
import type { BenchResults } from './schema.js';

function table(title: string, headers: string[], rows: (string | number | null)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null ? '—' : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [`${title}`, line(cells[0] as string[]), ...cells.slice(1).map(line), ''].join('\n');
}

const n = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));

/** An iteration's phases, in the order of its split. */
const SPLIT_HEADERS = ['rollout', 'env', 'scoring', 'update', 'metrics'];
const splitCells = (s: Omit<BenchResults['iteration']['split'], 'totalMs'>) =>
  [s.rolloutMs, s.envMs, s.scoringMs, s.updateMs, s.metricsMs].map((x) => n(x, 1));

/** The roofline: each backend's matrix rate and the model's phases against it (issue 22). */
export function formatRoofline(x: NonNullable<BenchResults['roofline']>): string {
  const rows = x.rows.flatMap((b) => [
    [
      b.backend + (b.software ? '*' : ''),
      '2-D matMul (roof)',
      '—',
      b.matmul.shapes.map((m) => `${m.m}×${m.k}×${m.n}: ${n(m.gflops, 1)}`).join(', '),
      n(b.matmul.gflops, 1),
      '100%',
    ],
    ...b.phases.map((p) => [
      b.backend + (b.software ? '*' : ''),
      `${p.phase} (${p.size})`,
      p.shape,
      `${n(p.flops / 1e6, 1)} MFLOP in ${n(p.ms, 1)} ms`,
      n(p.gflops, 2),
      `${n(100 * p.share, 1)}%`,
    ]),
  ]);
  const soft = x.rows.some((b) => b.software)
    ? '* software adapter (SwiftShader): correctness only, never a target.\n'
    : '';
  return `${table('Roofline (GFLOP/s of matrix products; share of the same-run 2-D matMul rate)', ['backend', 'what', 'shape', 'work', 'GFLOP/s', 'share'], rows)}${soft}FLOPs: ${x.formula}\n`;
}

/** WASM threads off against on in Chromium (issue 22). */
export function formatWasmThreads(w: NonNullable<BenchResults['wasmThreads']>): string {
  const x = w.result;
  if (!w.ran || !x) return `WASM threads in Chromium: not run (${w.reason})\n`;
  const side = (name: string, s: typeof x.on) => [
    name,
    n(s.matmulGflops, 1),
    n(s.stepMs, 1),
    n(s.scoreMs, 1),
    s.decodeTokensPerSec,
  ];
  const sp = x.speedup;
  return `${table(
    `WASM threads in Chromium (${x.browser}; medians of ${x.rounds} alternating rounds; nano, 8×128 step, 16-row scoring, 64-row decoding)`,
    ['threads', 'matMul GFLOP/s', 'step ms', 'scoring ms', 'decoding tokens/s'],
    [
      side('off (1)', x.off),
      side(`on (${x.threadCount})`, x.on),
      ['speed-up (on vs off)', `${sp.matmul}×`, `${sp.trainingStep}×`, `${sp.scoring}×`, `${sp.decoding}×`],
    ],
  )}Same numbers with threads? largest |on − off| over ${x.iterations} trainer iterations' metrics ${x.maxAbsDiff.trainerMetrics.toExponential(1)}${x.worstMetric ? ` (${x.worstMetric})` : ''}, over 5 policy-step losses ${x.maxAbsDiff.stepLosses.toExponential(1)}\n`;
}

/** The cheaper passes switched off ("before") and on, same run (issue 22). */
export function formatBeforeAfter(b: NonNullable<BenchResults['beforeAfter']>): string {
  const out: string[] = [];
  const p = b.preset;
  if (p)
    out.push(
      table(
        `The ${p.preset} preset before and after the cheaper passes (${p.backend}, same run, mean of ${Math.max(1, p.iterations - 1)} iterations each; ${p.speedup}× faster)`,
        ['', ...SPLIT_HEADERS, 's / iteration'],
        [
          ['before', ...splitCells(p.before.split), n(p.before.secondsPerIteration, 2)],
          ['after', ...splitCells(p.after.split), n(p.after.secondsPerIteration, 2)],
        ],
      ),
    );
  const d = b.decoding;
  if (d)
    out.push(
      table(
        `Decoding before and after (${d.backend}, ${d.size}, ${d.rows} rows, ${d.promptTokens}+${d.newTokens} tokens, same run)`,
        ['before tokens/s', 'after tokens/s', 'speed-up'],
        [[d.beforeTokensPerSec, d.afterTokensPerSec, `${d.speedup}×`]],
      ),
    );
  if (b.switches.length > 0) out.push(`"Before" switches off: ${b.switches.join('; ')}\n`);
  return out.join('\n');
}

/** The run's header line. */
const header = (r: BenchResults) =>
  `starpo bench${r.quick ? ' --quick' : ''} — ${r.createdAt}, ${r.machine.cpus} CPUs, ${r.machine.runtime}, tfjs ${r.machine.tfjs}, ${n(r.wallSeconds, 1)} s\n`;

const backendsTable = (r: BenchResults) =>
  table(
    'Backends',
    ['backend', 'available', 'label / reason'],
    r.backends.map((b) => [b.backend, b.available ? 'yes' : 'no', b.available ? b.label : b.reason]),
  );

const envsTable = (r: BenchResults) =>
  table(
    'Env steps/s per family (random policy, one thread)',
    ['family', 'id', 'steps/s'],
    r.envs.map((e) => [e.family, e.id, e.stepsPerSec]),
  );

function envPathTable(r: BenchResults): string {
  const p = r.envPath;
  return table(
    `Env path (${p.env}, ${p.slots} slots × ${p.turns} turns × ${p.actionsPerTurn} actions, MessageChannel)`,
    ['direct steps/s', 'one message per turn', 'one message per step (naive)'],
    [[p.directStepsPerSec, p.perTurnStepsPerSec, p.perStepStepsPerSec]],
  );
}

const rolloutTable = (r: BenchResults) =>
  table(
    'Rollout decoding (tokens/s)',
    ['backend', 'size', 'rows', 'prompt+new', 'KV cache', 'naive recompute', 'speed-up'],
    r.rollout.map((x) => [
      x.backend,
      x.size,
      x.rows,
      `${x.promptTokens}+${x.newTokens}`,
      x.cachedTokensPerSec,
      x.naiveTokensPerSec,
      `${x.cacheSpeedup}×`,
    ]),
  );

const modelTable = (r: BenchResults) =>
  table(
    'Scoring and update per model size and backend (ms, median)',
    [
      'backend',
      'size',
      'params',
      'fused',
      'update rows×T',
      'update',
      'first step',
      'scoring rows',
      'scoring',
    ],
    r.model.map((m) => [
      m.backend + (m.backend === 'webgpu' ? '*' : ''),
      m.size,
      m.params,
      m.backend === 'webgpu' ? (m.fused ? 'yes' : 'no') : '—',
      `${m.rows}×${m.T}`,
      n(m.stepMs, 1),
      n(m.firstStepMs, 0),
      m.scoreRows,
      n(m.scoreMs, 1),
    ]),
  );

const softwareNote = (r: BenchResults) =>
  r.model.some((m) => m.backend === 'webgpu')
    ? '* webgpu here is a software adapter (SwiftShader): correctness only, not a speed figure.\n'
    : null;

const dispatchTable = (r: BenchResults) =>
  table(
    'Dispatches (webgpu) / kernels (cpu, wasm) per step',
    ['backend', 'size', 'step', 'rows×T', 'unfused', 'fused', 'reduction'],
    r.dispatch.map((d) => [
      d.backend,
      d.size,
      d.kind,
      `${d.rows}×${d.T}`,
      d.unfused,
      d.fused,
      d.reduction === null ? null : `${d.reduction}×`,
    ]),
  );

function kernelCheckTable(r: BenchResults): string {
  const k = r.kernelCheck;
  if (!k.ran) return `Fused kernels vs unfused: not run (${k.reason})\n`;
  return table(
    `Fused kernels vs unfused (tolerance ${k.tolerance})`,
    ['check', 'max |Δ value|', 'max |Δ grad|', 'ok'],
    k.rows.map((c) => [
      c.name,
      c.valueDiff.toExponential(1),
      c.gradDiff?.toExponential(1) ?? null,
      c.ok ? 'yes' : 'NO',
    ]),
  );
}

const probeTable = (r: BenchResults) =>
  table(
    'Backend probe (one training step, synthetic minibatch)',
    ['backend', 'size', 'ms/step', 'first step ms', 'note'],
    r.probe.map((x) => [
      x.backend,
      x.size,
      x.msPerStep === null ? null : n(x.msPerStep, 1),
      x.firstStepMs === null ? null : n(x.firstStepMs, 0),
      x.reason,
    ]),
  );

function iterationTable(r: BenchResults): string {
  const it = r.iteration;
  return table(
    `Trainer iteration (${it.backend}, ${it.size}, ${it.env}, ${it.algorithm}, ${it.groups}×${it.groupSize} rollouts, ${it.maxTurns} turns × ${it.maxTokensPerTurn} tokens; mean of ${Math.max(1, it.iterations - 1)})`,
    [...SPLIT_HEADERS, 'total ms'],
    [[...splitCells(it.split), n(it.split.totalMs, 1)]],
  );
}

function presetTable(r: BenchResults): string | null {
  const p = r.preset;
  if (!p) return null;
  return table(
    `The ${p.preset} preset (${p.backend}, ${p.env}, shipped base model; mean of ${Math.max(1, p.iterations - 1)} iterations)`,
    [...SPLIT_HEADERS, 's / iteration', '200 iterations (s)'],
    [[...splitCells(p.split), n(p.secondsPerIteration, 2), n(p.projected200Seconds, 0)]],
  );
}

function frozenPresetTable(r: BenchResults): string | null {
  const p = r.frozenPreset;
  if (!r.preset || !p) return null;
  return table(
    `Its frozen control (lr 0: rollout and measurements, no update; same run; ${n(r.preset.secondsPerIteration / p.secondsPerIteration, 2)}× faster than the learner)`,
    [...SPLIT_HEADERS, 's / iteration', '200 iterations (s)'],
    [[...splitCells(p.split), n(p.secondsPerIteration, 2), n(p.projected200Seconds, 0)]],
  );
}

function memoryLine(r: BenchResults): string {
  const m = r.memory;
  return `Memory over ${m.iterations} iterations (${m.backend}): tensors ${m.numTensors[0]} → ${m.numTensors.at(-1)} (growth after warm-up ${m.tensorGrowth}), GPU bytes ${m.gpuBytes[0]} → ${m.gpuBytes.at(-1)}\n`;
}

const targetsTable = (r: BenchResults) =>
  table(
    'Targets (reported, not asserted)',
    ['target', 'wanted', 'value', 'met'],
    r.targets.map((t) => [
      t.name,
      t.target,
      t.value,
      t.met === null ? 'not measured' : t.met ? 'yes' : `no${t.note ? ` (${t.note})` : ''}`,
    ]),
  );

/** The report's sections in order; null leaves a section out (a part that did not run). */
const SECTIONS: readonly ((r: BenchResults) => string | null)[] = [
  header,
  backendsTable,
  envsTable,
  envPathTable,
  rolloutTable,
  modelTable,
  softwareNote,
  dispatchTable,
  kernelCheckTable,
  probeTable,
  (r) => (r.roofline ? formatRoofline(r.roofline) : null),
  (r) => (r.wasmThreads ? formatWasmThreads(r.wasmThreads) : null),
  (r) => (r.beforeAfter ? formatBeforeAfter(r.beforeAfter) : null),
  iterationTable,
  presetTable,
  frozenPresetTable,
  (r) => (r.webshop ? formatWebshop(r.webshop) : null),
  memoryLine,
  targetsTable,
];

/** All sections of the report as one string. */
export function formatTables(r: BenchResults): string {
  return SECTIONS.map((section) => section(r))
    .filter((x): x is string => x !== null)
    .join('\n');
}

/** The WebShop-lite section: SFT step before/after pieces and the preset's iteration split. */
export function formatWebshop(w: NonNullable<BenchResults['webshop']>): string {
  const out = [
    table(
      `WebShop-lite SFT step (${w.backend}, nano, ${w.demos} demonstrations; ${w.sftSpeedup}× faster now)`,
      ['variant', 'vocabulary', 'batch', 'mean padded T', 'ms / step (median)', 'steps'],
      w.sft.map((x) => [x.variant, x.vocabulary, x.batch, x.meanT, n(x.stepMs, 0), x.steps]),
    ),
  ];
  const p = w.iteration;
  if (p) {
    out.push(
      table(
        `The ${p.preset} preset (${p.backend}, ${p.env}, shipped base model; mean of ${Math.max(1, p.iterations - 1)} iterations)`,
        [...SPLIT_HEADERS, 's / iteration'],
        [[...splitCells(p.split), n(p.secondsPerIteration, 2)]],
      ),
    );
  }
  if (w.iterationRefused) out.push(`The webshop preset did not run: ${w.iterationRefused}\n`);
  return out.join('\n');
}
