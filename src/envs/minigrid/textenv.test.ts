// The text layer: action phrases (case- and whitespace-insensitive), invalid actions (no
// move, a step counted, an explanatory line), effectiveness, and the end of an episode.
import { describe, expect, it } from 'vitest';
import { minigridEnvs } from './index.js';
import { type MiniGridTextEnv, parseAction } from './textenv.js';
import { ACT } from './world.js';

function make(id: string): MiniGridTextEnv {
  const env = minigridEnvs.find((s) => s.id === id)?.make();
  if (!env) throw new Error(id);
  return env as MiniGridTextEnv;
}

describe('parseAction', () => {
  it('maps the phrases, ignoring case and extra whitespace', () => {
    expect(parseAction('turn left')).toBe(ACT.left);
    expect(parseAction('  Turn \t RIGHT\n')).toBe(ACT.right);
    expect(parseAction('Go Forward')).toBe(ACT.forward);
    expect(parseAction('pick   up')).toBe(ACT.pickup);
    expect(parseAction('DROP')).toBe(ACT.drop);
    expect(parseAction('toggle')).toBe(ACT.toggle);
    expect(parseAction('done')).toBe(ACT.done);
    expect(parseAction('pickup')).toBe(-1);
    expect(parseAction('go forward please')).toBe(-1);
    expect(parseAction('')).toBe(-1);
  });
});

describe('MiniGridTextEnv', () => {
  it('treats unknown text as an invalid action: no move, one step counted, a line saying so', () => {
    const env = make('minigrid/Empty-5x5');
    const first = env.reset(0);
    const before = JSON.stringify(env.view().cells);
    const r = env.step('fly to the goal');
    expect(r.info).toEqual({ success: false, actionIsValid: false, actionIsEffective: false });
    expect(r.reward).toBe(0);
    expect(r.done).toBe(false);
    expect(env.world.stepCount).toBe(1);
    expect([env.world.agentX, env.world.agentY, env.world.agentDir]).toEqual([1, 1, 0]);
    expect(JSON.stringify(env.view().cells)).toBe(before);
    const lines = r.observation.split('\n');
    expect(lines[0]).toBe(
      'Your previous action was not understood. Valid actions: turn left, turn right, go forward, pick up, drop, toggle.',
    );
    expect(lines.slice(1).join('\n')).toBe(first);
    // The next valid action's observation no longer carries the line.
    expect(env.step('turn right').observation.startsWith('Mission:')).toBe(true);
  });

  it('accepts "done" only where the family uses it, and only three actions in Dynamic-Obstacles', () => {
    const doorKey = make('minigrid/DoorKey-5x5');
    doorKey.reset(1);
    expect(doorKey.step('done').info.actionIsValid).toBe(false);
    const goToDoor = make('minigrid/GoToDoor-5x5');
    goToDoor.reset(1);
    expect(goToDoor.validActions()).toContain('done');
    expect(goToDoor.step('done').info.actionIsValid).toBe(true);
    const dyn = make('minigrid/Dynamic-Obstacles-5x5');
    dyn.reset(1);
    expect(dyn.step('pick up').info.actionIsValid).toBe(false);
  });

  it('reports whether the state changed', () => {
    const env = make('minigrid/Empty-5x5');
    env.reset(0);
    expect(env.step('turn left').info.actionIsEffective).toBe(true); // now facing the wall above
    expect(env.step('go forward').info.actionIsEffective).toBe(false);
    expect(env.step('pick up').info.actionIsEffective).toBe(false);
    expect(env.step('turn right').info.actionIsEffective).toBe(true);
    expect(env.step('go forward').info.actionIsEffective).toBe(true);
  });

  it('ends at the goal with success and then refuses further steps without change', () => {
    const env = make('minigrid/Empty-5x5');
    env.reset(0);
    const actions = ['go forward', 'go forward', 'turn right', 'go forward', 'go forward'];
    let last = env.step(actions[0] as string);
    for (const a of actions.slice(1)) last = env.step(a);
    expect(last.done).toBe(true);
    expect(last.info.success).toBe(true);
    expect(last.reward).toBeCloseTo(1 - 0.9 * (5 / 100), 12);
    const after = env.step('turn left');
    expect(after).toEqual({
      observation: last.observation,
      reward: 0,
      done: true,
      info: { success: false, actionIsValid: false, actionIsEffective: false },
    });
  });

  it('truncates after maxSteps invalid actions too', () => {
    const env = make('minigrid/Empty-5x5');
    env.reset(0);
    let done = false;
    let n = 0;
    while (!done) {
      done = env.step('???').done;
      n++;
    }
    expect(n).toBe(100);
  });

  it('needs reset before step', () => {
    expect(() => make('minigrid/Empty-5x5').step('turn left')).toThrow('reset');
  });

  it('gives a JSON view with the grid, the agent and its field of view', () => {
    const env = make('minigrid/DoorKey-5x5');
    env.reset(4);
    const v = env.view();
    expect(v.kind).toBe('minigrid');
    expect(v.width).toBe(5);
    const doors = v.cells.filter((c) => c?.type === 'door');
    expect(doors).toEqual([{ type: 'door', color: 'yellow', state: 'locked' }]);
    expect(v.cells[3 * 5 + 3]).toEqual({ type: 'goal', color: 'green' });
    expect(v.fov.positions[3]?.[6]).toEqual([v.agent.x, v.agent.y]);
    expect(v.fov.cells[3]?.[6]).toBeNull();
  });
});
