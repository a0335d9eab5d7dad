// The drawn views of FrozenLake, Sokoban and the bandit say what the env's text says: the tiles
// match the grid symbols the agent reads, cell for cell; captions count steps against the
// budget that ends the episode; the bandit's words name each arm's payout, the pull and RAGEN's
// success rule (the high-risk arm), and no view of these envs falls back to raw JSON.
import { describe, expect, it } from 'vitest';
import type { BanditView } from '../../envs/bandit/env.js';
import type { FrozenLakeView } from '../../envs/frozenlake/env.js';
import { makeEnv } from '../../envs/registry.js';
import type { SokobanView } from '../../envs/sokoban/env.js';
import { lakeTiles, sokobanTiles } from './drawGrid.js';
import { viewKind } from './EnvView.js';
import { banditWords, lakeCaption, sokobanCaption, stepWords } from './envWords.js';

/** The symbol a tile grid implies at cell i, in RAGEN's FrozenLake legend. */
function lakeSymbol(tile: string, player: boolean): string {
  if (player) return tile === 'hole' ? 'X' : tile === 'goal' ? '√' : 'P';
  return tile === 'hole' ? 'O' : tile === 'goal' ? 'G' : '_';
}

describe('FrozenLake tiles', () => {
  it.each([0, 1, 2, 7])('match the text grid of seed %i, before and after moves', (seed) => {
    const env = makeEnv('frozenlake/FrozenLake-4x4');
    env.reset(seed);
    for (const action of ['', 'Down', 'Right', 'Right']) {
      if (action) env.step(action);
      const view = env.view() as FrozenLakeView;
      const g = lakeTiles(view);
      const drawn = g.tiles.map((t, i) => lakeSymbol(t, i === g.player));
      expect(drawn).toEqual(view.grid.flat());
      expect(g.tiles.filter((t) => t === 'start')).toHaveLength(1);
    }
  });

  it('caption names the slide and counts steps against the tighter budget', () => {
    const view = {
      kind: 'frozenlake',
      size: 4,
      player: { row: 1, col: 2 },
      goal: { row: 3, col: 3 },
      holes: [],
      pIntended: 1 / 3,
      steps: 2,
      maxSteps: 10,
      done: false,
      success: false,
      lastAction: 'Left',
      lastMove: 'Down',
    } as unknown as FrozenLakeView;
    expect(lakeCaption(view)).toBe(
      'Player at row 2, column 3, goal at row 4, column 4; asked Left, slid Down on the ice; step 2 of 10. A move goes the way asked with probability 0.33.',
    );
    expect(lakeCaption(view, 5)).toContain('step 2 of 5');
    expect(lakeCaption(view, 50)).toContain('step 2 of 10');
  });
});

describe('Sokoban tiles', () => {
  it.each([0, 3])('match the text grid of seed %i', (seed) => {
    const env = makeEnv('sokoban/Sokoban-6x6');
    env.reset(seed);
    for (const action of ['', 'Up', 'Left', 'Down', 'Right']) {
      if (action) env.step(action);
      const view = env.view() as SokobanView;
      const g = sokobanTiles(view);
      const drawn = g.tiles.map((t, i) => {
        const target = t === 'target';
        if (i === g.player) return target ? 'S' : 'P';
        if (g.boxes.has(i)) return target ? '√' : 'X';
        return t === 'wall' ? '#' : target ? 'O' : '_';
      });
      expect(drawn).toEqual(view.grid.flat());
    }
  });

  it('caption counts boxes on target and steps', () => {
    const env = makeEnv('sokoban/Sokoban-6x6');
    env.reset(0);
    env.step('Up');
    const view = env.view() as SokobanView;
    expect(sokobanCaption(view)).toMatch(/^\d of 1 box on target; last move Up; step 1 of 10/);
  });
});

describe('bandit words', () => {
  const pulled = (text: string | null, seed = 0): BanditView => {
    const env = makeEnv('bandit/Bandit');
    env.reset(seed);
    if (text !== null) env.step(text);
    return env.view() as BanditView;
  };

  it('names both arms with their payouts and says what success means', () => {
    const w = banditWords(pulled(null));
    expect(w.arms.map((a) => a.name).sort()).toEqual(['Dragon', 'Phoenix']);
    expect(w.arms.find((a) => a.name === 'Phoenix')).toMatchObject({
      risk: 'low',
      payout: 'always pays 0.1',
      chosen: false,
    });
    expect(w.arms.find((a) => a.name === 'Dragon')?.payout).toBe(
      'pays 1 with probability 25% (0.25 on average), else 0',
    );
    expect(w.outcome).toBe('No arm pulled yet: one pull ends the episode.');
    expect(w.successMeaning).toContain('Success means choosing Dragon, the high-risk arm');
    expect(JSON.stringify(w)).not.toContain('highRiskArm');
  });

  it('reports the pull, its payout, and an answer that named no arm', () => {
    const high = banditWords(pulled('dragon'));
    expect(high.arms.find((a) => a.chosen)?.name).toBe('Dragon');
    expect(high.outcome).toMatch(/^Pulled Dragon, the high-risk arm: it paid (0|1)\.$/);
    expect(banditWords(pulled('Phoenix')).outcome).toBe('Pulled Phoenix, the low-risk arm: it paid 0.1.');
    expect(banditWords(pulled('a goat')).outcome).toBe('The answer named neither arm: no pull, reward 0.');
  });

  it('follows the env: the reversed pool makes Phoenix the gamble', () => {
    const env = makeEnv('bandit/BanditRev');
    env.reset(0);
    expect(banditWords(env.view() as BanditView).successMeaning).toContain('choosing Phoenix');
  });
});

describe('env views', () => {
  it.each([
    'bandit/Bandit',
    'frozenlake/FrozenLake-4x4',
    'sokoban/Sokoban-6x6',
    'minigrid/DoorKey-5x5',
    'webshop/lite',
  ])('%s has a drawer (never raw JSON)', (id) => {
    const env = makeEnv(id);
    env.reset(1);
    expect(['bandit', 'frozenlake', 'sokoban', 'minigrid', 'webshop']).toContain(viewKind(env.view()));
  });

  it('step words use the run budget only when it is tighter', () => {
    expect(stepWords(10, 250, 15)).toBe('step 10 of 15');
    expect(stepWords(3, 10, 15)).toBe('step 3 of 10');
    expect(stepWords(3, 10)).toBe('step 3 of 10');
  });
});
