// The glue between the store, the workers and IndexedDB (xyflow + zustand style: the store
// holds plain data; this module holds the TrainClient and turns user actions into requests and
// run reports into store updates and incremental saves — runs/runSaver.ts: one transaction per
// batch, failures reported and retried, rewinds after a worker restart). Nothing here renders.
import { type Config, FIELDS } from '../core/config.js';
import { checkpointToFile, importedName, parseFile, type RunMeta, runToFile } from '../core/files/runFile.js';
import { parseModelIndex } from '../core/model/modelIndex.js';
import type { RunReport } from '../workers/client.js';
import { TrainClient } from '../workers/client.js';
import { assertNever, type BaseChoice } from '../workers/protocol.js';
import { haltEvent } from './components/FaultBanner.js';
import { MAX_RUN_FILE_BYTES, sizeRefusal } from './runs/fileLimits.js';
import {
  flushWrites,
  resetSampleThinning,
  rewindSaved,
  samplesToStore,
  saveReports,
  write,
} from './runs/runSaver.js';
import * as db from './runs/runsDb.js';
import { chooseBase } from './store/baseChoice.js';
import { useApp } from './store/index.js';

const LIVE = new Set(FIELDS.filter((f) => f.live).map((f) => f.key));

let client: TrainClient | null = null;

// The run status last written, so progress reports patch the record only on a change.
let savedStatus = '';

export { flushWrites };

export async function refreshRuns(): Promise<void> {
  await flushWrites();
  useApp.getState().setStoredRuns(await db.listRuns());
}

function onReport(r: RunReport): void {
  const s = useApp.getState();
  if (r.type === 'recovering' || r.type === 'recovered') {
    if (r.runId !== null && r.runId !== s.runId) return;
    const hadRun = r.runId !== null;
    if (r.type === 'recovering') {
      s.setRecovery({
        state: 'recovering',
        fault: r.fault,
        message: r.message,
        iteration: s.iteration,
        backend: null,
        hadRun,
      });
      return;
    }
    s.setBackendReady(r.report);
    s.setRecovery({
      state: 'recovered',
      fault: r.fault,
      message: r.message,
      iteration: r.iteration,
      backend: r.report.backend,
      hadRun,
    });
    if (r.runId !== null) {
      s.rewindRun(r.iteration);
      rewindSaved(r.runId, r.iteration, r.report.backend);
    }
    return;
  }
  if (r.runId !== s.runId) return; // a late report of a run that was reset
  const id = r.runId;
  switch (r.type) {
    case 'reports':
      // One batch from the worker: shown, and stored in one transaction.
      s.addReports(r.rows, r.events, r.samples);
      saveReports(id, { rows: r.rows, events: r.events, samples: samplesToStore(r.samples, s.planned) });
      return;
    case 'progress': {
      // 'finished' is shown once the run's end is saved (see below).
      if (r.phase === 'finished') return;
      s.setProgress(r.iteration, r.planned, r.phase);
      const status = r.phase === 'paused' ? 'paused' : 'running';
      if (status !== savedStatus) {
        savedStatus = status;
        write(() => db.patchRun(id, { status }));
      }
      return;
    }
    case 'checkpoint':
      write(() => db.putCheckpoint(id, { manifest: r.manifest, blob: r.blob, iteration: r.iteration }));
      write(() => db.patchRun(id, { hasCheckpoint: true }));
      return;
    case 'finished':
      write(() =>
        db.patchRun(id, { status: r.reason === 'completed' ? 'finished' : 'stopped', summary: r.summary }),
      );
      // Shown as finished once everything before it is saved, so a reload right after finds
      // the run stored as ended.
      void flushWrites().then(() => {
        if (useApp.getState().runId === id) useApp.getState().finishRun(r.summary);
        void refreshRuns();
      });
      return;
    case 'runError': {
      // Repeated NaN/Inf iterations: the fault banner explains and suggests a live change, then
      // Resume. Any other error ends the run as failed, its saved rows and checkpoint kept.
      const halted = haltEvent(s.events) !== null;
      if (halted) s.setRunStatus('paused');
      else s.failRun(r.message);
      savedStatus = halted ? 'paused' : 'failed';
      write(() => db.patchRun(id, { status: halted ? 'paused' : 'failed' }));
      void flushWrites().then(refreshRuns);
      return;
    }
    default:
      assertNever(r);
  }
}

/** Starts the train worker, marks runs a closed tab left behind, loads the run list and models. */
export function initController(): () => void {
  const c = new TrainClient();
  client = c;
  const off = c.onReport(onReport);
  const offStartup = c.onStartup((s) => useApp.getState().setStartupStatus(s));
  if (new URLSearchParams(window.location.search).has('test-faults')) installFaultHooks(c);
  c.init(useApp.getState().config.backend, useApp.getState().config.modelSize).then(
    (report) => useApp.getState().setBackendReady(report),
    (err: Error) => useApp.getState().setBackendFailed(err.message),
  );
  void db
    .markInterrupted()
    .then(refreshRuns)
    .catch((err: Error) => useApp.getState().setNotice({ kind: 'error', text: `IndexedDB: ${err.message}` }));
  fetch(new URL('models/index.json', document.baseURI))
    .then((r) => (r.ok ? r.json() : []))
    .then((list: unknown) => useApp.getState().setBaseModels(parseModelIndex(list)))
    .catch((err: Error) => {
      useApp.getState().setBaseModels([]);
      useApp.getState().setNotice({
        kind: 'error',
        text: `The base models could not be read (runs start untrained): ${err.message}`,
      });
    });
  return () => {
    off();
    offStartup();
    c.dispose();
    if (client === c) client = null;
  };
}

/**
 * Test hooks (only with `?test-faults` in the address): inject the faults of issue 10 so the
 * browser tests can watch the recovery.
 */
function installFaultHooks(c: TrainClient): void {
  (window as unknown as { starpoFaults: unknown }).starpoFaults = {
    loseDevice: () => c.injectFault('loseDevice'),
    crashWorker: () => c.injectFault('crash'),
    killWorker: () => c.killWorker(),
    nonFinite: (count: number) => c.injectFault('nonFinite', count),
  };
}

export function trainClient(): TrainClient | null {
  return client;
}

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

async function guarded(fn: (c: TrainClient) => Promise<void>): Promise<void> {
  const s = useApp.getState();
  if (!client || s.busy) return;
  s.setBusy(true);
  try {
    await fn(client);
  } catch (err) {
    useApp.getState().setNotice({ kind: 'error', text: (err as Error).message });
  } finally {
    useApp.getState().setBusy(false);
  }
}

/** Starts a new run from the current setup (paused: ready for Step). */
export function startRun(paused = false): Promise<void> {
  return guarded((c) => doStart(c, paused));
}

async function doStart(c: TrainClient, paused: boolean): Promise<void> {
  const s = useApp.getState();
  if (s.configErrors.length > 0) throw new Error('fix the setup first');
  if (!s.baseModelsReady) throw new Error('the base models are still loading: try again in a moment');
  if (s.sweepProgress) throw new Error('a sweep is running in the train worker: wait for it or stop it');
  const config = s.config;
  const runId = `run-${crypto.randomUUID()}`;
  const name = `${config.algorithm} · ${config.env.replace(/^minigrid\//, '')} · seed ${config.seed}`;
  // A new start clears what the last one said.
  s.setNotice(null);
  const base = await baseFor(config);
  s.beginRun(runId, name, config.iterations, config.env);
  resetSampleThinning();
  savedStatus = paused ? 'paused' : 'running';
  let started: Awaited<ReturnType<TrainClient['start']>>;
  try {
    started = await c.start(runId, config, base.choice, paused);
  } catch (err) {
    // Nothing was stored: a run that never had an iteration is shown as failed, not kept.
    useApp.getState().failRun(`the run could not start: ${(err as Error).message}`);
    return;
  }
  const { info, report } = started;
  useApp.getState().setStartInfo(info);
  useApp.getState().setBackendReady(report);
  // Stored once the worker has it: queued before any of its reports, so they find the record.
  const meta: RunMeta = {
    id: runId,
    name,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    status: savedStatus === 'paused' ? 'paused' : 'running',
    config,
    iteration: 0,
    summary: null,
    base: { id: info.baseId, label: info.baseLabel, untrained: info.untrained },
    backend: report.backend,
    hasCheckpoint: false,
  };
  write(() => db.putRun(meta));
  void refreshRuns();
}

export const pauseRun = () => guarded((c) => c.pause());
export const resumeRun = () =>
  guarded(async (c) => {
    useApp.getState().setRunStatus('running');
    await c.resume();
  });
export const stepRun = () =>
  guarded(async (c) => {
    const st = useApp.getState().runStatus;
    if (st === 'idle' || st === 'finished' || st === 'failed') await doStart(c, true);
    await c.stepOne();
  });
export const stopRun = () =>
  guarded(async (c) => {
    useApp.getState().setRunStatus('stopping');
    await c.stop();
  });
export const resetRun = () =>
  guarded(async (c) => {
    const { runId, runStatus } = useApp.getState();
    await c.reset();
    useApp.getState().setNotice(null);
    // A run dropped mid-way is kept, as stopped (its last checkpoint is the periodic one).
    if (runId && runStatus !== 'finished' && runStatus !== 'failed')
      write(() => db.patchRun(runId, { status: 'stopped' }));
    useApp.getState().clearRun();
    void refreshRuns();
  });

let liveTimer: ReturnType<typeof setTimeout> | null = null;
let pendingLive: Partial<Config> = {};

/** Sends a live setting to the running trainer (debounced while typing). */
export function applyLive(key: string, value: unknown): void {
  const st = useApp.getState().runStatus;
  if (!LIVE.has(key) || !(st === 'running' || st === 'paused')) return;
  pendingLive = { ...pendingLive, [key]: value };
  if (liveTimer) clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    const changes = pendingLive;
    pendingLive = {};
    client
      ?.setLive(changes)
      .catch((err: Error) => useApp.getState().setNotice({ kind: 'error', text: err.message }));
  }, 400);
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const fileName = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 80);

export async function exportRun(id: string): Promise<void> {
  await flushWrites();
  const data = await db.loadRun(id);
  if (data) download(`${fileName(data.meta.name)}.starpo-run.json`, runToFile(data));
}

export async function exportCheckpoint(id: string): Promise<void> {
  await flushWrites();
  const meta = useApp.getState().storedRuns.find((r) => r.id === id);
  const cp = await db.getCheckpoint(id);
  if (!cp || !meta)
    return useApp.getState().setNotice({ kind: 'error', text: 'this run has no checkpoint yet' });
  download(`${fileName(meta.name)}.starpo-checkpoint.json`, checkpointToFile(meta.name, cp));
}

/** Validates a file fully, then stores it in one transaction; a bad file changes nothing. */
export async function importFile(file: File): Promise<void> {
  const s = useApp.getState();
  const tooBig = sizeRefusal(file, MAX_RUN_FILE_BYTES, 'run and checkpoint files');
  if (tooBig) return s.setNotice({ kind: 'error', text: tooBig });
  const parsed = parseFile(await file.text());
  if (!parsed.ok) return s.setNotice({ kind: 'error', text: `${file.name} was refused: ${parsed.message}` });
  const id = `import-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  if (parsed.kind === 'run') {
    await db.storeRun({
      ...parsed.run,
      meta: { ...parsed.run.meta, id, name: importedName(parsed.run.meta.name) },
    });
  } else {
    const meta: RunMeta = {
      id,
      name: importedName(parsed.name),
      createdAt: Date.now(),
      updatedAt: Date.now(),
      status: 'finished',
      config: s.config,
      iteration: parsed.checkpoint.iteration,
      summary: null,
      base: { id: 'imported', label: 'imported checkpoint', untrained: false },
      backend: null,
      hasCheckpoint: true,
    };
    await db.storeRun({ meta, rows: [], events: [], samples: [], checkpoint: parsed.checkpoint });
  }
  await refreshRuns();
  s.setNotice({ kind: 'info', text: `Imported ${file.name}` });
}

export async function deleteStoredRun(id: string): Promise<void> {
  await flushWrites();
  await db.deleteRun(id);
  useApp.getState().removeOverlay(id);
  await refreshRuns();
}

export async function renameRun(id: string, name: string): Promise<void> {
  if (!name.trim()) return;
  write(() => db.patchRun(id, { name: name.trim().slice(0, 200) }));
  await refreshRuns();
}

export async function toggleOverlay(id: string): Promise<void> {
  const s = useApp.getState();
  if (s.overlays.some((o) => o.id === id)) return s.removeOverlay(id);
  await flushWrites();
  const meta = s.storedRuns.find((r) => r.id === id);
  s.addOverlay({ id, name: meta?.name ?? id, rows: await db.loadRows(id) });
}
