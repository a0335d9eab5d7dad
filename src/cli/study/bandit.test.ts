// The Bandit re-measurement's report, judged as pre-registered, on fake stored runs: an arm is
// compared with the frozen control on the same seeds over its last 10 iterations, one-sided in
// the predicted direction; an arm with fewer than 8 seeds is not judged yet; where each run ended
// and the detector's verdicts stand beside.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import { banditSection } from './armsStudy.js';

async function fakeRun(dir: string, algorithm: string, seed: number, success: number): Promise<void> {
  const runDir = join(dir, 'custom', algorithm, `seed-${seed}`);
  await mkdir(runDir, { recursive: true });
  await writeFile(
    join(runDir, 'config.json'),
    JSON.stringify({ ...defaultConfig(), algorithm, seed, iterations: 12 }),
  );
  const rows = Array.from({ length: 12 }, (_, i) =>
    JSON.stringify({ iteration: i, 'rollout/successRate': success }),
  );
  await writeFile(join(runDir, 'metrics.jsonl'), `${rows.join('\n')}\n`);
}

describe('the Bandit re-measurement report', () => {
  it('judges each arm against the frozen control on the same seeds, in the predicted direction', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-bandit-'));
    const seeds = [201, 202, 203, 204, 205, 206, 207, 208];
    for (const s of seeds) {
      await fakeRun(join(dir, 'frozen'), 'starpo-ppo', s, 0.5);
      await fakeRun(join(dir, 'learners'), 'starpo-grpo', s, 0.1 + s / 10_000); // below: as predicted
      await fakeRun(join(dir, 'learners'), 'starpo-s', s, 0.2); // below: against the prediction
    }
    for (const s of seeds.slice(0, 3)) await fakeRun(join(dir, 'learners'), 'starpo-ppo', s, 0.9);
    const md = await banditSection(dir);
    expect(md).toMatch(/\| starpo-grpo \| safe \| 8 \| 0\.12 \| -0\.38 \| 0\.004 \| as predicted \|/);
    expect(md).toMatch(
      /\| starpo-s \| risky \| 8 \| 0\.20 \| -0\.30 \| 1\.000 \| against the prediction \(p 0\.004 the other way\) \|/,
    );
    expect(md).toMatch(/\| starpo-ppo \| risky \| 3 \| .* \| 3 of 8 seeds run: not judged yet \|/);
    expect(md).toMatch(/\| starpo-drgrpo \| risky \| 0 \| – .* not run yet \|/);
    expect(md).toMatch(/frozen control's last 10 iterations: 0\.50 \(8 runs\)/);
    // Where each run ended (risky ≥ 0.8 / safe ≤ 0.2 / between) and the detector's verdicts.
    expect(md).toMatch(/\| frozen \| – \| 8 \| 0\.50 \| .* \| 0 \/ 0 \/ 8 \| 0 of 8 \|/);
    expect(md).toMatch(/\| starpo-grpo \| .* \| as predicted \| 0 \/ 8 \/ 0 \| 0 of 8 \|/);
    expect(md).toMatch(/\| starpo-ppo \| .* \| 3 \/ 0 \/ 0 \| 0 of 3 \|/);
  });
});
