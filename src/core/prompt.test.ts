import { describe, expect, it } from 'vitest';
import { buildSequence, formatReward, type PromptTurn, promptTemplateTexts } from './prompt.js';
import { buildVocabulary, Tokenizer } from './tokenizer.js';

const tok = new Tokenizer(
  buildVocabulary([
    ...promptTemplateTexts(),
    'get to the green goal square',
    'You see a wall 2 steps forward\nYou see a green goal 1 step left',
    'goal is left turn left go forward',
  ]),
);
const think = tok.special['<think>'];
const response = (text: string) => ({ ids: tok.encode(text) });
const turn = (k: number, done = true): PromptTurn => ({
  observation: `You see a green goal ${k} step left`,
  actionsLeft: 5 - k,
  ...(done
    ? { response: response('goal is left</think><answer>turn left</answer>'), reward: k === 2 ? 0.85 : 0 }
    : {}),
});
const opts = { historyTurns: 5, maxTokens: 512 };

describe('buildSequence', () => {
  it('writes the RAGEN layout and masks only the agent tokens', () => {
    const seq = buildSequence(tok, 'get to the green goal square', [turn(1), turn(2), turn(3, false)], opts);
    expect(tok.decode(seq.ids)).toBe(
      '<bos>get to the green goal square\n' +
        '<turn>turn 1<state>state:\nYou see a green goal 1 step left\nactions left: 4\n<think>goal is left</think><answer>turn left</answer><reward>reward: 0\n' +
        '<turn>turn 2<state>state:\nYou see a green goal 2 step left\nactions left: 3\n<think>goal is left</think><answer>turn left</answer><reward>reward: 0.85\n' +
        '<turn>turn 3<state>state:\nYou see a green goal 3 step left\nactions left: 2\n<think>',
    );
    expect(seq.generationPrompt).toBe(true);
    expect(seq.ids[seq.ids.length - 1]).toBe(think);
    expect(seq.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
    // The mask covers exactly the response tokens of turns 1 and 2 (not the forced <think>).
    const masked = seq.ids.filter((_, i) => seq.lossMask[i] === 1);
    expect(tok.decode(masked)).toBe(
      'goal is left</think><answer>turn left</answer>goal is left</think><answer>turn left</answer>',
    );
    const span = seq.turns[0];
    expect(span && seq.ids[span.responseStart - 1]).toBe(think);
    expect(span && tok.decode(seq.ids.slice(span.responseStart, span.responseEnd))).toBe(
      'goal is left</think><answer>turn left</answer>',
    );
    expect(seq.agentMask).toEqual(seq.lossMask);
  });

  it('puts env tokens in the loss on request, never the instruction', () => {
    const seq = buildSequence(tok, 'get to the green goal square', [turn(1), turn(2, false)], {
      ...opts,
      lossOnEnvTokens: true,
    });
    const header = tok.encode('get to the green goal square').length + 2;
    expect(Array.from(seq.lossMask.slice(0, header)).every((m) => m === 0)).toBe(true);
    expect(Array.from(seq.lossMask.slice(header)).every((m) => m === 1)).toBe(true);
    expect(Array.from(seq.agentMask).filter((m) => m === 1).length).toBe(
      tok.encode('goal is left</think><answer>turn left</answer>').length,
    );
  });

  it('cuts history to historyTurns, visibly', () => {
    const seq = buildSequence(tok, 'get to the green goal square', [turn(1), turn(2), turn(3, false)], {
      ...opts,
      historyTurns: 2,
    });
    expect(seq.droppedTurns).toBe(1);
    expect(seq.turns.map((t) => t.turn)).toEqual([2, 3]);
    expect(tok.decode(seq.ids)).toMatch(/^<bos>get to the green goal square\n<cut>\n<turn>turn 2<state>/);
  });

  it('respects the hard limit with reserved tokens, dropping turns then shortening the observation', () => {
    const turns = [turn(1), turn(2), turn(3, false)];
    const full = buildSequence(tok, 'get to the green goal square', turns, opts).ids.length;
    const limited = buildSequence(tok, 'get to the green goal square', turns, {
      ...opts,
      maxTokens: full,
      reserveTokens: 10,
    });
    expect(limited.ids.length).toBeLessThanOrEqual(full - 10);
    expect(limited.droppedTurns).toBeGreaterThan(0);
    expect(limited.truncated).toBe(false);
    const tiny = buildSequence(tok, 'get to the green goal square', turns, { ...opts, maxTokens: 30 });
    expect(tiny.ids.length).toBeLessThanOrEqual(30);
    expect(tiny.truncated).toBe(true);
    expect(tok.tokenStrings(tiny.ids)).toContain('<cut>');
    expect(() =>
      buildSequence(tok, 'get to the green goal square', turns, { ...opts, maxTokens: 12 }),
    ).toThrow(/maxTokens 12/);
  });

  it('accepts a response as text and formats rewards', () => {
    const seq = buildSequence(
      tok,
      'go',
      [
        {
          observation: 'wall',
          actionsLeft: 1,
          response: { text: '<think>x</think><answer>turn left</answer>' },
          reward: -0.1,
        },
      ],
      opts,
    );
    expect(seq.generationPrompt).toBe(false);
    expect(tok.tokenStrings(seq.ids).filter((t) => t === '<think>').length).toBe(1);
    expect([formatReward(-0.1), formatReward(0.855), formatReward(-0.001), formatReward(1)]).toEqual([
      '-0.1',
      '0.86',
      '0',
      '1',
    ]);
  });

  it('refuses a missing response before the last turn', () => {
    expect(() => buildSequence(tok, 'go', [turn(1, false), turn(2, false)], opts)).toThrow(
      /turn 1 has no response/,
    );
  });
});
