import { describe, expect, it } from 'vitest';
import { parseResponse } from './parse.js';

const opts = { maxActionsPerTurn: 2 };

describe('parseResponse', () => {
  it('reads think and answer, with or without the forced <think>', () => {
    for (const text of [
      '<think>key is right</think><answer>turn right</answer>',
      'key is right</think> <answer> turn right </answer>',
    ]) {
      const r = parseResponse(text, opts);
      expect(r).toMatchObject({
        think: 'key is right',
        answer: 'turn right',
        actions: ['turn right'],
        formatOk: true,
      });
      expect(r.issues).toEqual([]);
    }
  });

  it('splits actions on || and truncates to maxActionsPerTurn', () => {
    const r = parseResponse('go</think><answer>turn left || go forward||toggle</answer>', opts);
    expect(r.actions).toEqual(['turn left', 'go forward']);
    expect(r.droppedActions).toBe(1);
    expect(r.formatOk).toBe(true);
  });

  it('keeps WebShop actions intact', () => {
    const r = parseResponse('buy it</think><answer>click[b0001]</answer>', opts);
    expect(r.actions).toEqual(['click[b0001]']);
  });

  it.each([
    ['no closing think', 'thinking forever <answer>left</answer>', ['unclosed-think']],
    ['no answer', 'hmm</think>', ['no-answer']],
    ['unclosed answer', 'hmm</think><answer>turn left', ['unclosed-answer']],
    ['empty answer', 'hmm</think><answer>  </answer>', ['empty-answer']],
    ['text between tags', 'hmm</think> so <answer>left</answer>', ['text-between-tags']],
    ['empty action', 'hmm</think><answer>left ||</answer>', ['empty-action']],
    ['nothing at all', '', ['unclosed-think', 'no-answer']],
  ])('reports %s', (_name, text, issues) => {
    const r = parseResponse(text, opts);
    expect(r.issues).toEqual(issues);
    expect(r.formatOk).toBe(false);
  });

  it('gives no actions unless the answer is closed', () => {
    expect(parseResponse('hmm</think><answer>turn left', opts).actions).toEqual([]);
    expect(parseResponse('hmm</think><answer>left ||</answer>', opts).actions).toEqual(['left']);
  });

  it('rejects a bad maxActionsPerTurn', () => {
    expect(() => parseResponse('x', { maxActionsPerTurn: 0 })).toThrow(/maxActionsPerTurn/);
  });
});
