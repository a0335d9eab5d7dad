// "Play it yourself" follows the setup's episode rules as the rollout does: the budget the agent
// reads counts down by the actions of each finished turn, a turn ends after its allowed actions,
// the episode ends at the turn limit, the budget or the env's own end, and a turn with an
// invalid action costs the format penalty once.
import { describe, expect, it } from 'vitest';
import { makeEnv } from '../../envs/registry.js';
import { actionsLeftInTurn, agentText, endTurn, playAction, startEpisode } from './playEpisode.js';

const rules = { maxTurns: 3, maxActionsPerTurn: 2, maxActionsPerTraj: 5, formatPenalty: 0.1 };

describe('play episode', () => {
  it('counts the budget per turn and shows the state read at the turn start', () => {
    let s = startEpisode(makeEnv('minigrid/Empty-5x5'), 1, rules);
    expect(agentText(s)).toMatch(/turn 1 state:\n[\s\S]*\nactions left: 5$/);
    const first = s.turnObservation;
    s = playAction(s, 'turn left');
    expect(s.turn).toBe(1);
    expect(s.turnObservation).toBe(first); // the agent reads the new state only next turn
    expect(actionsLeftInTurn(s)).toBe(1);
    s = playAction(s, 'turn left'); // second action: the turn is used up
    expect(s.turn).toBe(2);
    expect(s.actionsLeft).toBe(3);
    expect(agentText(s)).toMatch(/turn 2 state:\n[\s\S]*\nactions left: 3$/);
    expect(s.turnObservation).toBe(s.observation);
  });

  it('ends at the turn limit, with the reason', () => {
    let s = startEpisode(makeEnv('minigrid/Empty-5x5'), 1, { ...rules, maxActionsPerTraj: 10 });
    for (let t = 0; t < 3; t++) {
      s = playAction(s, 'turn left');
      s = endTurn(s);
    }
    expect(s.done).toBe(true);
    expect(s.turn).toBe(3);
    expect(s.endedBy).toBe('the turn limit (3) is reached');
    expect(playAction(s, 'turn left')).toBe(s);
  });

  it('ends when the budget is spent, never showing a negative budget', () => {
    let s = startEpisode(makeEnv('minigrid/Empty-5x5'), 1, { ...rules, maxTurns: 10, maxActionsPerTraj: 3 });
    for (let i = 0; i < 6; i++) s = playAction(s, 'turn right');
    expect(s.used).toBe(3);
    expect(s.actionsLeft).toBe(0);
    expect(s.done).toBe(true);
    expect(s.endedBy).toBe('the action budget (3) is spent');
  });

  it('charges the format penalty once for a turn with invalid actions', () => {
    let s = startEpisode(makeEnv('minigrid/Empty-5x5'), 1, rules);
    s = playAction(s, 'fly away');
    s = playAction(s, 'dance');
    expect(s.total).toBeCloseTo(-0.1, 10);
    expect(s.log.map((l) => l.valid)).toEqual([false, false]);
  });

  it('ends when the env ends (a bandit pull)', () => {
    let s = startEpisode(makeEnv('bandit/Bandit'), 0, { ...rules, maxActionsPerTraj: 1 });
    s = playAction(s, 'Phoenix');
    expect(s.done).toBe(true);
    expect(s.endedBy).toBe('the environment ended it');
    expect(s.total).toBeCloseTo(0.1, 10);
  });
});
