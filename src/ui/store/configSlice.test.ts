// The setup as its layers (issue 17): the page opens on the echo-trap preset over the shipped
// base model's episode settings; an invalid edit stays (with its error) when another field is
// edited; a new env shows its own base model's settings; a bad URL hash keeps its valid fields
// and names every bad one.
import { beforeEach, describe, expect, it } from 'vitest';
import type { BaseModelEntry } from '../../core/model/modelIndex.js';
import { encodeConfigHash } from '../../core/urlHash.js';
import { presetEdited, START_PRESET } from './configSlice.js';
import { useApp } from './index.js';

const entry = (env: string, id: string, settings: Record<string, number>): BaseModelEntry => ({
  id,
  env,
  size: 'nano',
  manifest: `${id}.json`,
  blob: `${id}.bin`,
  params: 1,
  greedySuccess: 0.4,
  sampledSuccess: 0.2,
  settings,
  pretrain: { vocabulary: 80 },
});

const MODELS = [
  entry('minigrid/DoorKey-5x5', 'doorkey', {
    contextLength: 256,
    maxTurns: 3,
    maxActionsPerTurn: 5,
    maxActionsPerTraj: 15,
    historyTurns: 1,
    maxTokensPerTurn: 40,
  }),
  entry('frozenlake/FrozenLake-4x4', 'lake', {
    contextLength: 256,
    maxTurns: 5,
    maxActionsPerTurn: 2,
    maxActionsPerTraj: 10,
    historyTurns: 1,
    maxTokensPerTurn: 40,
  }),
];

const s = () => useApp.getState();
const error = (field: string) => s().configErrors.find((e) => e.field === field)?.message;

beforeEach(() => {
  s().setBaseChoice('auto');
  s().applyPreset(START_PRESET);
  s().setBaseModels(MODELS);
});

describe('the setup as layers', () => {
  it('opens on the echo-trap preset with the base model’s episode settings, marked', () => {
    expect(s().preset).toBe('echo-trap');
    expect(s().configErrors).toEqual([]);
    expect(s().config.contextLength).toBe(256);
    expect(s().config.historyTurns).toBe(1);
    expect(s().sources.contextLength).toBe('base');
    expect(s().sources.lr).toBe('preset');
  });

  it('refuses a context the base model cannot read, at the field, keeping the runnable config', () => {
    s().setField('contextLength', '512');
    expect(error('contextLength')).toMatch(/must be at most 256: the base model doorkey reads 256 tokens/);
    expect(s().values.contextLength).toBe(512);
    expect(s().config.contextLength).toBe(256);
  });

  it('keeps an invalid edit, and its error, when another field is edited', () => {
    s().setField('groups', '3.7');
    expect(error('groups')).toBe('must be a whole number from 1 to 128');
    s().setField('seed', '5');
    expect(s().values.groups).toBe(3.7);
    expect(error('groups')).toBe('must be a whole number from 1 to 128');
    expect(s().values.seed).toBe(5);
    s().setField('groups', '6');
    expect(s().configErrors).toEqual([]);
    expect(s().config.groups).toBe(6);
    expect(s().config.seed).toBe(5);
  });

  it('shows the new env’s base-model settings when the env changes', () => {
    s().setField('maxTurns', '2');
    s().setField('env', 'frozenlake/FrozenLake-4x4');
    expect(s().config.maxTurns).toBe(5);
    expect(s().config.maxActionsPerTurn).toBe(2);
    expect(s().sources.maxTurns).toBe('base');
  });

  it('a preset drops earlier edits but keeps the backend choice', () => {
    s().setField('backend', 'wasm');
    s().setField('lr', '0.01');
    s().applyPreset('stable');
    expect(s().config.algorithm).toBe('starpo-s');
    expect(s().config.lr).not.toBe(0.01);
    expect(s().config.backend).toBe('wasm');
  });

  it('a URL hash keeps its valid fields and names every bad one', () => {
    const errors = s().loadHash('#seed=9&colour=red&groups=abc&lr=0.002');
    expect(errors.map((e) => e.field).sort()).toEqual(['colour', 'groups']);
    expect(s().values.seed).toBe(9);
    expect(s().values.lr).toBe(0.002);
    // The rejected value is named, not kept in the form: the field shows what would run.
    expect(s().drafts.groups).toBeUndefined();
    expect(s().configErrors).toEqual([]);
    // Still the echo-trap experiment underneath, on the base model's settings.
    expect(s().values.contextLength).toBe(256);
  });

  it('a URL hash with an unknown env or an out-of-range value keeps the preset’s value for it', () => {
    const preset = s().config.env;
    const errors = s().loadHash('#env=minigrid/NoSuchRoom&lr=5&seed=4');
    expect(errors.map((e) => e.field).sort()).toEqual(['env', 'lr']);
    expect(s().values.env).toBe(preset);
    expect(s().values.lr).toBeLessThanOrEqual(0.1);
    expect(s().values.seed).toBe(4);
    expect(s().configErrors).toEqual([]);
  });

  it('a link that holds the preset’s own values loads as the preset, not edited', () => {
    const hash = `#${encodeConfigHash(s().config)}`;
    expect(s().loadHash(hash)).toEqual([]);
    expect(s().edits).toEqual({});
    expect(presetEdited(s().edits)).toBe(false);
    // One changed field is the one edit, whatever else the link spells out.
    s().loadHash(hash.replace(/seed=\d+/, 'seed=77'));
    expect(s().edits).toEqual({ seed: 77 });
  });

  it('a link read before the base models are known loads as the preset once they are', () => {
    const hash = `#${encodeConfigHash(s().config)}`;
    useApp.setState({ baseModels: [], baseModelsReady: false });
    s().resolveSetup();
    s().loadHash(hash);
    expect(presetEdited(s().edits)).toBe(true);
    s().setBaseModels(MODELS);
    expect(s().edits).toEqual({});
    expect(s().config.contextLength).toBe(256);
  });

  it('an edit made while the base models load survives their arrival, an invalid one with its error', () => {
    useApp.setState({ baseModels: [], baseModelsReady: false });
    s().resolveSetup();
    s().setField('groups', '0');
    s().setField('seed', '5');
    s().setBaseModels(MODELS);
    expect(s().edits).toEqual({ groups: 0, seed: 5 });
    expect(s().values.groups).toBe(0);
    expect(error('groups')).toBeDefined();
  });

  it('a hash edited in the open tab keeps the setup’s other fields and its value for a refused one', () => {
    s().setField('groups', '6');
    s().setField('seed', '5');
    const errors = s().loadHash('#seed=99&lr=banana', s().edits);
    expect(errors.map((e) => e.field)).toEqual(['lr']);
    expect(s().config.seed).toBe(99);
    expect(s().config.groups).toBe(6);
  });
});
