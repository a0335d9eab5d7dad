// Fuzz of every registered environment's action parser (envs/types.ts: "unknown text is an
// invalid action, never an exception"): random Unicode, brackets, tags, huge strings and
// mutations of the env's own valid actions, before and after the episode ends. Every step
// returns a well-formed result with a finite reward; text with no letters at all, and text
// longer than MAX_ACTION_CHARS, is always invalid; a huge action costs no more than a short one.
import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { envIds, makeEnv } from '../envs/registry.js';
import { MAX_ACTION_CHARS, type StepResult, type TextEnv } from '../envs/types.js';
import { mutateText, NASTY_FRAGMENTS, randomText } from './fuzz.js';

const IDS = envIds();
const HUGE = `search[${'red shampoo '.repeat(100_000)}]`;

function checkStep(r: StepResult): void {
  expect(typeof r.observation).toBe('string');
  expect(Number.isFinite(r.reward)).toBe(true);
  expect(typeof r.done).toBe('boolean');
  expect(typeof r.info.success).toBe('boolean');
  expect(typeof r.info.actionIsValid).toBe('boolean');
  expect(typeof r.info.actionIsEffective).toBe('boolean');
}

/** An action with no letter in it (digits, punctuation, brackets, symbols, controls). */
function letterless(rng: Rng): string {
  const pool = NASTY_FRAGMENTS.filter((f) => !/\p{L}/u.test(f));
  let s = '';
  for (let i = rng.int(0, 12); i > 0; i--)
    s += rng.bool() ? rng.choice(pool) : String.fromCharCode(rng.int(32, 65));
  return s;
}

function actionFor(rng: Rng, env: TextEnv): string {
  const valid = env.validActions();
  const r = rng.float();
  if (valid && valid.length > 0 && r < 0.3) return rng.choice(valid);
  if (valid && valid.length > 0 && r < 0.6) return mutateText(rng, rng.choice(valid));
  if (r < 0.7) return letterless(rng);
  return randomText(rng, 80);
}

describe('environment action fuzz', () => {
  it(`covers every registered environment (${IDS.length})`, () => {
    expect(IDS.length).toBeGreaterThan(10);
  });

  it.each(IDS)('%s: random and mutated actions never throw', (id) => {
    const rng = new Rng(7).fork(id);
    const env = makeEnv(id);
    let steps = 0;
    for (let episode = 0; episode < 3; episode++) {
      env.reset(rng.int(0, 2 ** 31));
      for (let k = 0; k < 40; k++) {
        const action = k % 7 === 3 ? letterless(rng) : actionFor(rng, env);
        const r = env.step(action);
        checkStep(r);
        if (k % 7 === 3) expect(r.info.actionIsValid, JSON.stringify(action)).toBe(false);
        steps++;
      }
    }
    expect(steps).toBe(120);
  });

  it.each(IDS)('%s: actions over MAX_ACTION_CHARS are invalid and cheap', (id) => {
    const env = makeEnv(id);
    env.reset(3);
    const valid = env.validActions()?.[0] ?? 'search[shampoo]';
    const padded = `${valid}${' '.repeat(MAX_ACTION_CHARS)}`;
    const t0 = performance.now();
    for (const action of [HUGE, padded, '['.repeat(MAX_ACTION_CHARS + 1)]) {
      env.reset(3);
      const r = env.step(action);
      checkStep(r);
      expect(r.info.actionIsValid).toBe(false);
    }
    expect(performance.now() - t0).toBeLessThan(200);
  });
});
