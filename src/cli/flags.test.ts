// Flags: values converted by kind, usage errors that name the flag, and choices checked against
// the config field table (so `--algo` and `--algos` refuse a misspelt algorithm the same way).
import { describe, expect, it } from 'vitest';
import { ALGORITHM_NAMES } from '../core/config.js';
import { UsageError } from './command.js';
import { choiceFlag, parseFlags } from './flags.js';

describe('parseFlags', () => {
  const specs = [
    { name: 'iters', kind: 'int', help: '' },
    { name: 'quiet', kind: 'bool', help: '' },
  ] as const;

  it('converts values and takes a bare boolean', () => {
    expect(parseFlags(['--iters=3', '--quiet'], specs)).toEqual({ iters: 3, quiet: true });
  });

  it('refuses unknown, repeated and malformed flags, naming them', () => {
    expect(() => parseFlags(['--iter', '3'], specs)).toThrow('unknown flag --iter');
    expect(() => parseFlags(['--iters', '3', '--iters', '4'], specs)).toThrow('--iters is given twice');
    expect(() => parseFlags(['--iters', '2.5'], specs)).toThrow('--iters: "2.5" is not a whole number');
  });
});

describe('choiceFlag', () => {
  it('accepts every algorithm of the field table', () => {
    for (const a of ALGORITHM_NAMES) expect(choiceFlag('algorithm', a)).toBe(a);
  });

  it('refuses a misspelt one with a usage error naming the flag and the options', () => {
    expect(() => choiceFlag('algorithm', 'starpo-pp')).toThrow(UsageError);
    expect(() => choiceFlag('algorithm', 'starpo-pp')).toThrow(
      `--algo: "starpo-pp" is not one of ${ALGORITHM_NAMES.join(', ')}`,
    );
    expect(() => choiceFlag('algorithm', 'grpo', 'algos')).toThrow('--algos: "grpo"');
  });
});
