// Run and checkpoint files: what the playground exports and what it accepts back. Everything is
// validated with zod (and the config with core's own schema) before anything is stored, so a
// bad file is refused with a message naming what is wrong and nothing already saved changes.
// Older file versions are brought up to date first (fileVersions.ts); newer ones are refused.
import { z } from 'zod';
import { type Config, completeConfig, formatErrors } from '../config.js';
import type { RunSummary } from '../metrics/detector.js';
import type { MetricRow } from '../metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../rl/trainer.js';
import {
  CHECKPOINT_FILE_VERSION,
  migrateCheckpointFile,
  migrateRunFile,
  RUN_FILE_VERSION,
} from './fileVersions.js';

export const RUN_FILE_FORMAT = 'starpo-run';
export const CHECKPOINT_FILE_FORMAT = 'starpo-checkpoint-file';

export type RunStatus = 'running' | 'paused' | 'finished' | 'stopped' | 'interrupted' | 'failed';

/** A stored run's record (plain data; the series live in their own stores). */
export interface RunMeta {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  status: RunStatus;
  config: Config;
  iteration: number;
  summary: RunSummary | null;
  base: { id: string; label: string; untrained: boolean };
  backend: string | null;
  hasCheckpoint: boolean;
  /** The database schema version the stored record has the shape of (set by runsDb; not in files). */
  schemaVersion?: number;
}

/** A checkpoint as stored: the manifest and its float32 blob. */
export interface StoredCheckpoint {
  manifest: unknown;
  blob: Uint8Array;
  iteration: number;
}

/** Everything about one run, as exported. */
export interface RunData {
  meta: RunMeta;
  rows: MetricRow[];
  events: TrainerEvent[];
  samples: SampledTrajectory[];
  checkpoint: StoredCheckpoint | null;
}

const finite = z.number().refine(Number.isFinite, { error: 'must be a finite number' });
const nonNegInt = z.number().int().min(0);

const summarySchema = z.object({
  echoTrap: z.boolean(),
  recovered: z.boolean(),
  converged: z.boolean(),
  startSuccess: finite.optional(),
  peakSuccess: finite,
  peakIteration: z.number().int(),
  finalSuccess: finite,
  collapseIteration: z.number().int().nullable(),
  firstWarningIteration: z.number().int().nullable(),
  firstWarningLead: z.number().int().nullable(),
  falseWarnings: nonNegInt,
  firstFired: z.record(z.string(), z.number()),
  verdict: z
    .object({
      verdict: z.enum(['trapped', 'collapsed', 'held', 'too-short']),
      iterations: nonNegInt,
      minIterations: nonNegInt,
      z: finite,
      start: finite.optional(),
      seStart: finite.optional(),
      peak: finite.optional(),
      sePeak: finite.optional(),
      peakIteration: z.number().int().optional(),
      last: finite.optional(),
      seLast: finite.optional(),
      riseZ: finite.optional(),
      fallZ: finite.optional(),
      collapseIteration: z.number().int().nullable().optional(),
    })
    .optional(),
});

const metaSchema = z.object({
  name: z.string().min(1).max(200),
  createdAt: finite,
  updatedAt: finite,
  status: z.enum(['running', 'paused', 'finished', 'stopped', 'interrupted', 'failed']),
  config: z.unknown(),
  iteration: nonNegInt,
  summary: summarySchema.nullable(),
  base: z.object({ id: z.string(), label: z.string(), untrained: z.boolean() }),
  backend: z.string().nullable(),
});

// Metric values are numbers (JSON writes NaN/Infinity as null: those are dropped on import).
const rowSchema = z.record(z.string(), z.number().nullable()).refine((r) => Number.isInteger(r.iteration), {
  error: 'each metric row needs a whole-number iteration',
});

const eventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('echo'),
    iteration: nonNegInt,
    kind: z.enum(['warning', 'context', 'collapse', 'recovery', 'convergence']),
    signal: z.string(),
    metric: z.string(),
    message: z.string(),
    value: z.number().nullable(),
    reference: z.number().nullable(),
  }),
  z.object({
    type: z.literal('error'),
    iteration: nonNegInt,
    message: z.string(),
    consecutive: nonNegInt,
    pause: z.boolean().optional(),
    suggestion: z.string().optional(),
  }),
  z.object({ type: z.literal('live'), iteration: nonNegInt, changes: z.record(z.string(), z.unknown()) }),
]);

const turnSchema = z.object({
  observation: z.string(),
  responseText: z.string(),
  tokens: z.array(z.string()),
  logps: z.array(z.number().nullable()),
  actions: z.array(z.string()),
  valid: z.array(z.boolean()),
  reward: z.number(),
  penalised: z.boolean(),
});

const firstTurnSchema = z.object({ think: z.string(), action: z.string(), success: z.boolean() });

const sampleSchema = z.object({
  iteration: nonNegInt,
  group: nonNegInt,
  seed: nonNegInt,
  instruction: z.string(),
  reward: z.number(),
  success: z.boolean(),
  mi: z
    .object({
      matrix: z.array(z.array(z.number())).max(64),
      prompts: z.array(z.string()).max(64),
      thinks: z.array(z.string()).max(64),
      mi: z.number(),
      retrievalAcc: z.number(),
    })
    .optional(),
  reasoning: z
    .object({
      groups: z
        .array(
          z.object({
            seed: nonNegInt,
            rollouts: z.array(firstTurnSchema).max(256),
            base: z.array(firstTurnSchema).max(256).optional(),
          }),
        )
        .max(256),
    })
    .optional(),
  turns: z.array(turnSchema),
});

const checkpointSchema = z.object({
  manifest: z.object({ format: z.literal('starpo-checkpoint') }).loose(),
  blobBase64: z.string(),
  iteration: nonNegInt,
});

const runFileSchema = z.object({
  format: z.literal(RUN_FILE_FORMAT),
  version: z.literal(RUN_FILE_VERSION),
  meta: metaSchema,
  rows: z.array(rowSchema).max(1_000_000),
  events: z.array(eventSchema),
  samples: z.array(sampleSchema),
  checkpoint: checkpointSchema.nullable(),
});

const checkpointFileSchema = z.object({
  format: z.literal(CHECKPOINT_FILE_FORMAT),
  version: z.literal(CHECKPOINT_FILE_VERSION),
  name: z.string().min(1).max(200),
  checkpoint: checkpointSchema,
});

// btoa and atob are globals in browsers, workers and Node ≥ 16, but not in ES2022's lib (core
// type-checks without DOM types), hence the typed view of globalThis.
const base64 = globalThis as unknown as { btoa(s: string): string; atob(s: string): string };

/** Bytes → base64 (chunked so large blobs do not overflow the argument list). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return base64.btoa(s);
}

/** base64 → bytes; throws on characters outside the alphabet. */
export function fromBase64(text: string): Uint8Array {
  const s = base64.atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const COPY_MARK = ' (imported copy)';

/** The name an imported run is stored under: marked as a copy (once, however often re-imported). */
export function importedName(name: string): string {
  const base = name.endsWith(COPY_MARK) ? name.slice(0, -COPY_MARK.length) : name;
  return `${base.slice(0, 200 - COPY_MARK.length)}${COPY_MARK}`;
}

/** The JSON text of a run file. */
export function runToFile(run: RunData): string {
  const { id: _id, hasCheckpoint: _has, schemaVersion: _schema, ...meta } = run.meta;
  const checkpoint = run.checkpoint
    ? {
        manifest: run.checkpoint.manifest,
        blobBase64: toBase64(run.checkpoint.blob),
        iteration: run.checkpoint.iteration,
      }
    : null;
  return JSON.stringify({
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    meta,
    rows: run.rows,
    events: run.events,
    samples: run.samples,
    checkpoint,
  });
}

/** The JSON text of a checkpoint file. */
export function checkpointToFile(name: string, cp: StoredCheckpoint): string {
  return JSON.stringify({
    format: CHECKPOINT_FILE_FORMAT,
    version: CHECKPOINT_FILE_VERSION,
    name,
    checkpoint: { manifest: cp.manifest, blobBase64: toBase64(cp.blob), iteration: cp.iteration },
  });
}

export type ParsedFile =
  | { ok: true; kind: 'run'; run: Omit<RunData, 'meta'> & { meta: Omit<RunMeta, 'id'> } }
  | { ok: true; kind: 'checkpoint'; name: string; checkpoint: StoredCheckpoint }
  | { ok: false; message: string };

function issueText(error: z.ZodError): string {
  const first = error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`);
  return first.join('; ') + (error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '');
}

function decodeCheckpoint(c: z.infer<typeof checkpointSchema>): StoredCheckpoint {
  let blob: Uint8Array;
  try {
    blob = fromBase64(c.blobBase64);
  } catch {
    throw new Error('checkpoint.blobBase64 is not valid base64');
  }
  if (blob.byteLength % 4 !== 0) throw new Error('checkpoint blob is not whole float32 values');
  return { manifest: c.manifest, blob, iteration: c.iteration };
}

/**
 * A file's config (run files, sweep bundles): fields added to the config after the file was
 * written take their defaults (as the CLI completes a config file), so older runs, sweeps and the
 * tour's recordings still open; a
 * config that does not even name its env and algorithm, or has a bad value, is refused.
 */
export function fileConfig(raw: unknown): ReturnType<typeof completeConfig> {
  const named = (k: string) => typeof raw === 'object' && raw !== null && k in raw;
  const missing = ['env', 'algorithm'].filter((k) => !named(k));
  if (missing.length > 0)
    return { ok: false, errors: missing.map((field) => ({ field, message: 'is missing' })) };
  return completeConfig(raw);
}

/** Parses and validates a run or checkpoint file; never throws. */
export function parseFile(text: string): ParsedFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `not a JSON file (${(err as Error).message})` };
  }
  const format = (json as { format?: unknown } | null)?.format;
  try {
    if (format === CHECKPOINT_FILE_FORMAT) {
      const m = migrateCheckpointFile(json);
      if (!m.ok) return { ok: false, message: m.message };
      const r = checkpointFileSchema.safeParse(m.file);
      if (!r.success) return { ok: false, message: `bad checkpoint file: ${issueText(r.error)}` };
      return {
        ok: true,
        kind: 'checkpoint',
        name: r.data.name,
        checkpoint: decodeCheckpoint(r.data.checkpoint),
      };
    }
    if (format !== RUN_FILE_FORMAT) {
      return {
        ok: false,
        message: `not a run or checkpoint file (format is ${JSON.stringify(format ?? null)}, expected "${RUN_FILE_FORMAT}" or "${CHECKPOINT_FILE_FORMAT}")`,
      };
    }
    const m = migrateRunFile(json);
    if (!m.ok) return { ok: false, message: m.message };
    const r = runFileSchema.safeParse(m.file);
    if (!r.success) return { ok: false, message: `bad run file: ${issueText(r.error)}` };
    const cfg = fileConfig(r.data.meta.config);
    if (!cfg.ok) return { ok: false, message: `bad run file: meta.config: ${formatErrors(cfg.errors)}` };
    const rows = r.data.rows.map((row) => {
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(row)) if (v !== null) out[k] = v;
      return out as MetricRow;
    });
    const samples = r.data.samples.map((s) => ({
      ...s,
      turns: s.turns.map((t) => ({ ...t, logps: t.logps.map((l) => l ?? Number.NEGATIVE_INFINITY) })),
    }));
    const events = r.data.events.map((e) =>
      e.type === 'echo' ? { ...e, value: e.value ?? Number.NaN, reference: e.reference ?? Number.NaN } : e,
    ) as TrainerEvent[];
    return {
      ok: true,
      kind: 'run',
      run: {
        meta: {
          ...r.data.meta,
          // An imported run is never live in this tab.
          status:
            r.data.meta.status === 'running' || r.data.meta.status === 'paused'
              ? 'interrupted'
              : r.data.meta.status,
          config: cfg.config,
          hasCheckpoint: r.data.checkpoint !== null,
        },
        rows,
        events,
        samples,
        checkpoint: r.data.checkpoint ? decodeCheckpoint(r.data.checkpoint) : null,
      },
    };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}
