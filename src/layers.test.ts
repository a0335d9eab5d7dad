// The layers of docs/architecture.md hold over the whole tree, and the check would catch a file that
// broke them (fed fake files, since the real tree must have none).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  floorViolations,
  importCycles,
  importsOf,
  layerOf,
  layerViolations,
  readSources,
  type SourceFile,
} from './layers.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const sources = (dir: string): SourceFile[] => readSources(root, dir);

describe('layers', () => {
  it('no file of src/, scripts/ or tests/ imports against them', () => {
    const files = [...sources('src'), ...sources('scripts'), ...sources('tests')];
    expect(files.length).toBeGreaterThan(300);
    expect(layerViolations(files)).toEqual([]);
  });

  it('no core, CLI or page file imports a floor above its own, and every one stands on a floor', () => {
    expect(floorViolations(sources('src'))).toEqual([]);
  });

  it('would find a climb to a higher floor, by a type too, and a file on no floor', () => {
    const fake: SourceFile[] = [
      { path: 'src/core/metrics/m.ts', text: "import type { T } from '../rl/rollout.js';" },
      { path: 'src/core/rl/rollout.ts', text: "import { maskedMean } from '../variants/lossAggs.js';" },
      { path: 'src/core/variants/lossAggs.ts', text: "import type { Config } from '../config.js';" },
      { path: 'src/core/config.ts', text: '' },
      { path: 'src/core/elsewhere.ts', text: '' },
      { path: 'src/core/metrics/m.test.ts', text: "import { r } from '../rl/rollout.js';" },
      { path: 'src/cli/sweepRunner.ts', text: "import { runTraining } from './commands/train.js';" },
      { path: 'src/cli/commands/train.ts', text: "import { runTraining } from '../runTraining.js';" },
      { path: 'src/cli/runTraining.ts', text: '' },
      { path: 'src/cli/newPiece.ts', text: '' },
      { path: 'src/ui/store/index.ts', text: "import type { S } from '../fanout/fanoutRunner.js';" },
      { path: 'src/ui/fanout/fanoutRunner.ts', text: "import { useStore } from '../store/index.js';" },
      // A widget of the panels' folder stands below the folder: a view may use it, not a panel.
      { path: 'src/ui/tour/Tour.tsx', text: "import { OverlayPanel } from '../components/OverlayPanel.js';" },
      { path: 'src/ui/components/OverlayPanel.tsx', text: '' },
      {
        path: 'src/ui/explain/ExplainPopover.tsx',
        text: "import { Panel } from '../components/RunsPanel.js';",
      },
      { path: 'src/ui/components/RunsPanel.tsx', text: "import { v } from '../sweeps/SweepsDialog.js';" },
      {
        path: 'src/ui/sweeps/SweepsDialog.tsx',
        text: "import { useController } from '../controller/context.js';",
      },
      { path: 'src/ui/sweeps/runToEnd.ts', text: "import { c } from '../controller/controller.js';" },
      { path: 'src/ui/stray.ts', text: '' },
    ];
    expect(floorViolations(fake)).toEqual([
      {
        file: 'src/core/metrics/m.ts',
        spec: '../rl/rollout.js',
        reason: 'floor metrics may not import floor rl',
      },
      {
        file: 'src/core/variants/lossAggs.ts',
        spec: '../config.js',
        reason: 'floor variants may not import floor config',
      },
      { file: 'src/core/elsewhere.ts', spec: '', reason: 'stands on no floor of CORE_FLOORS' },
      {
        file: 'src/cli/sweepRunner.ts',
        spec: './commands/train.js',
        reason: 'floor pieces may not import floor commands',
      },
      { file: 'src/cli/newPiece.ts', spec: '', reason: 'stands on no floor of CLI_FLOORS' },
      {
        file: 'src/ui/store/index.ts',
        spec: '../fanout/fanoutRunner.js',
        reason: 'floor store may not import floor views',
      },
      {
        file: 'src/ui/explain/ExplainPopover.tsx',
        spec: '../components/RunsPanel.js',
        reason: 'floor explain may not import floor panels',
      },
      {
        file: 'src/ui/sweeps/runToEnd.ts',
        spec: '../controller/controller.js',
        reason: 'floor sweep runner may not import floor controller',
      },
      { file: 'src/ui/stray.ts', spec: '', reason: 'stands on no floor of UI_FLOORS' },
    ]);
  });

  it('src has no import circle, type-only imports included', () => {
    expect(importCycles(sources('src'), 'src')).toEqual([]);
  });

  it('would find a circle in core, ui or bench, through types and .tsx files', () => {
    const core: SourceFile[] = [
      { path: 'src/core/rl/a.ts', text: "import { b } from './b.js';" },
      { path: 'src/core/rl/b.ts', text: "import type { C } from './c.js';" },
      { path: 'src/core/rl/c.ts', text: "import { a } from './a.js';" },
      { path: 'src/core/rl/a.test.ts', text: "import { c } from './c.js';" },
    ];
    expect(importCycles(core, 'src')).toEqual([
      ['src/core/rl/a.ts', 'src/core/rl/b.ts', 'src/core/rl/c.ts', 'src/core/rl/a.ts'],
    ]);
    // The store's old loop: the store builds a slice, the slice takes AppState's type from it.
    const ui: SourceFile[] = [
      { path: 'src/ui/store/index.ts', text: "import { createSweepSlice } from '../sweeps/sweepSlice.js';" },
      { path: 'src/ui/sweeps/sweepSlice.ts', text: "import type { AppState } from '../store/index.js';" },
      { path: 'src/ui/App.tsx', text: "import { Panel } from './Panel.js';" },
      { path: 'src/ui/Panel.tsx', text: "export { App } from './App.js';" },
    ];
    expect(importCycles(ui, 'src')).toEqual([
      ['src/ui/store/index.ts', 'src/ui/sweeps/sweepSlice.ts', 'src/ui/store/index.ts'],
      ['src/ui/App.tsx', 'src/ui/Panel.tsx', 'src/ui/App.tsx'],
    ]);
    const bench: SourceFile[] = [
      { path: 'src/bench/schema.ts', text: "import { speedTargets } from './perfTargets.js';" },
      { path: 'src/bench/perfTargets.ts', text: "import type { Measured } from './schema.js';" },
    ];
    expect(importCycles(bench, 'src')).toEqual([
      ['src/bench/schema.ts', 'src/bench/perfTargets.ts', 'src/bench/schema.ts'],
    ]);
  });

  it('takes a worker or child-process URL for a program of its own, not an import', () => {
    const fake: SourceFile[] = [
      { path: 'src/cli/main.ts', text: "import { run } from './sweepRunner.js';" },
      { path: 'src/cli/sweepRunner.ts', text: "const MAIN = new URL('./main.ts', import.meta.url);" },
    ];
    expect(importCycles(fake, 'src')).toEqual([]);
  });

  it('finds every kind of import', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "import {\n  c,\n  d,\n} from './cd.js';",
      "export { e } from './e.js';",
      "import './side.js';",
      "const f = await import('./f.js');",
      "new Worker(new URL('./g.worker.ts', import.meta.url), { type: 'module' });",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(
      ['../b.js', './a.js', './cd.js', './e.js', './f.js', './g.worker.ts', './side.js'].sort(),
    );
  });

  it('places a file in its layer', () => {
    expect(layerOf('src/core/rl/trainer.ts')).toBe('core');
    expect(layerOf('src/ui/App.tsx')).toBe('ui');
    expect(layerOf('scripts/screenshot.ts')).toBe('scripts');
    expect(layerOf('src/layers.ts')).toBeNull();
    expect(layerOf('public/models/index.json')).toBeNull();
  });

  it('reports imports that run the wrong way', () => {
    const fake: SourceFile[] = [
      { path: 'src/core/rl/x.ts', text: "import { envIds } from '../../envs/registry.js';" },
      { path: 'src/envs/minigrid/x.ts', text: "import type { Msg } from '../../workers/protocol.js';" },
      { path: 'src/workers/x.ts', text: "import { probe } from '../bench/probe.js';" },
      { path: 'src/bench/x.ts', text: "import { loadBase } from '../cli/baseModel.js';" },
      { path: 'src/reliability/x.ts', text: "export { a } from '../cli/main.js';" },
      { path: 'src/ui/x.ts', text: "const m = await import('../bench/harness.js');" },
      { path: 'src/ui/y.ts', text: "import { s } from '../cli/sweepRunner.js';" },
      { path: 'src/cli/commands/x.ts', text: "import { b } from '../../ui/sweeps/sweepBundle.js';" },
      { path: 'scripts/x.ts', text: "import { r } from '../src/ui/runs/runFile.js';" },
      { path: 'src/workers/y.ts', text: "import { create } from 'zustand';" },
      { path: 'src/core/y.ts', text: "import { readFile } from 'node:fs/promises';" },
    ];
    expect(layerViolations(fake).map((v) => `${v.file}: ${v.reason}`)).toEqual([
      'src/core/rl/x.ts: core may not import envs',
      'src/envs/minigrid/x.ts: envs may not import workers',
      'src/workers/x.ts: workers may not import bench',
      'src/bench/x.ts: bench may not import cli',
      'src/reliability/x.ts: reliability may not import cli',
      'src/ui/x.ts: ui may not import bench',
      'src/ui/y.ts: ui may not import cli',
      'src/cli/commands/x.ts: cli may not import ui',
      'scripts/x.ts: scripts may not import ui',
      'src/workers/y.ts: zustand is for ui only',
      'src/core/y.ts: core runs in the browser too: no node:fs/promises',
    ]);
  });

  it('lets imports that follow them through, and tests only their extras', () => {
    const fine: SourceFile[] = [
      { path: 'src/envs/x.ts', text: "import { Rng } from '../core/rng.js';" },
      { path: 'src/reliability/x.ts', text: "import { runBench } from '../bench/harness.js';" },
      { path: 'src/cli/x.ts', text: "import { soak } from '../reliability/soak.js';" },
      { path: 'src/ui/x.ts', text: "import { create } from 'zustand';" },
      { path: 'src/core/x.test.ts', text: "import { setupNodeBackend } from '../workers/node/backend.js';" },
      { path: 'src/core/y.test.ts', text: "import { readFileSync } from 'node:fs';" },
      { path: 'src/reliability/x.test.ts', text: "import { trainCommand } from '../cli/commands/train.js';" },
      { path: 'tests/e2e/x.spec.ts', text: "import type { AppState } from '../../src/ui/store/index.js';" },
    ];
    expect(layerViolations(fine)).toEqual([]);
    const notTests: SourceFile[] = [
      { path: 'src/core/x.ts', text: "import { setupNodeBackend } from '../workers/node/backend.js';" },
      { path: 'src/bench/x.test.ts', text: "import { trainCommand } from '../cli/commands/train.js';" },
    ];
    expect(layerViolations(notTests).map((v) => v.reason)).toEqual([
      'core may not import workers',
      'bench may not import cli',
    ]);
  });
});
