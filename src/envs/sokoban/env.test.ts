// Sokoban rules and rewards on hand-made levels: gym_sokoban's −0.1 per action, +1 onto a
// target, −1 off a target, +10 when solved; pushes blocked by walls and boxes; the text grid's
// symbols; invalid text; truncation at maxSteps.
import { describe, expect, it } from 'vitest';
import { SokobanEnv } from './env.js';
import { parseLevel } from './level.js';

const close = (x: number) => Math.round(x * 1000) / 1000;

// Two boxes: the top one is pushed onto its target, then past it; the bottom one is untouched.
const TWO_BOXES = `
# # # # # # #
# P X O _ _ #
# _ _ X O _ #
# # # # # # #`;

describe('Sokoban rewards and rules', () => {
  it('pays −0.1 per move, +1 onto a target and −1 off it', () => {
    const env = new SokobanEnv({ boxes: 2 });
    env.load(parseLevel(TWO_BOXES));
    const onto = env.step('Right');
    expect(close(onto.reward)).toBe(0.9);
    expect(onto.info).toEqual({ success: false, actionIsValid: true, actionIsEffective: true });
    expect(onto.observation.split('\n')[1]).toBe('# _ P √ _ _ #');
    const off = env.step('right');
    expect(close(off.reward)).toBe(-1.1);
    expect(off.observation.split('\n')[1]).toBe('# _ _ S X _ #');
    const walk = env.step('Left');
    expect(close(walk.reward)).toBe(-0.1);
    expect(walk.observation.split('\n').slice(1, 3)).toEqual(['# _ P O X _ #', '# _ _ X O _ #']);
    expect(walk.done).toBe(false);
  });

  it('pays +10 more when the last box reaches its target, and ends the episode', () => {
    const env = new SokobanEnv({ boxes: 2 });
    env.load(parseLevel(TWO_BOXES));
    expect(close(env.step('Right').reward)).toBe(0.9);
    env.step('Down');
    env.step('Right'); // from (2,2) the player pushes the bottom box onto (2,4)
    const view = env.view();
    expect(view.done).toBe(true);
    expect(view.success).toBe(true);
    expect(view.lastReward).toBeCloseTo(10.9, 10);
    expect(view.boxesOnTarget).toBe(2);
    const after = env.step('Left');
    expect(after).toMatchObject({ reward: 0, done: true, info: { actionIsValid: false } });
  });

  it('blocks pushes into walls and into other boxes, still charging the move', () => {
    const env = new SokobanEnv({ boxes: 2 });
    env.load(parseLevel('# # # # # #\n# P X X O #\n# _ O _ _ #\n# # # # # #'));
    const blocked = env.step('Right');
    expect(close(blocked.reward)).toBe(-0.1);
    expect(blocked.info.actionIsEffective).toBe(false);
    expect(env.view().player).toEqual({ row: 1, col: 1 });
    const wall = env.step('Up');
    expect(wall.info.actionIsEffective).toBe(false);
    expect(close(wall.reward)).toBe(-0.1);
  });

  it('solves a corridor in one push with reward −0.1 + 1 + 10', () => {
    const env = new SokobanEnv();
    env.load(parseLevel('# # # # #\n# P X O #\n# # # # #'));
    const r = env.step('Right');
    expect(close(r.reward)).toBe(10.9);
    expect(r.done).toBe(true);
    expect(r.info.success).toBe(true);
    expect(r.observation.split('\n')[1]).toBe('# _ P √ #');
  });

  it('treats other text as an invalid no-op that still uses an action', () => {
    const env = new SokobanEnv({ maxSteps: 3 });
    const first = env.load(parseLevel('# # # # # #\n# P _ X O #\n# # # # # #'));
    const r = env.step('jump');
    expect(r.reward).toBe(0);
    expect(r.info).toEqual({ success: false, actionIsValid: false, actionIsEffective: false });
    expect(r.observation).toBe(
      `Your previous action was not understood. Valid actions: Up, Down, Left, Right.\n${first}`,
    );
    expect(env.step(' LEFT ').info.actionIsValid).toBe(true);
    const last = env.step('Left');
    expect(last.done).toBe(true);
    expect(last.info.success).toBe(false);
    expect(env.view().steps).toBe(3);
  });

  it('writes the legend and the new-vocabulary symbols', () => {
    const env = new SokobanEnv({
      symbols: {
        wall: 'W',
        floor: '.',
        target: 'G',
        boxOnTarget: 'C',
        box: 'B',
        player: 'A',
        playerOnTarget: '@',
      },
    });
    const obs = env.load(parseLevel('# # # # #\n# S X _ #\n# _ √ O #\n# # # # #'));
    expect(obs).toBe(
      'W W W W W\nW @ B . W\nW . C G W\nW W W W W\n' +
        'W: wall, .: empty, G: target, C: box on target, B: box, A: player, @: player on target',
    );
  });
});
