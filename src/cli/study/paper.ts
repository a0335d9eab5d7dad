// Our curves beside the paper's, for RAGEN's own environments (issue 12). The paper's side is
// its figures described in words (RAGEN, arXiv 2504.20073: validation success of Qwen2.5-0.5B
// over 200 steps, Fig 5 and 9); nothing is read off a plot we have not got. Our side is
// computed from the study's steps-matched runs, and each of the paper's shape claims gets a
// verdict from our numbers: seen, not seen, or not run.

import { mean, meanStd } from '../../core/stats.js';
import type { LoadedRun } from './analyze.js';

interface PaperCurves {
  label: string;
  /** The paper's described curve per algorithm family. */
  curves: Partial<Record<string, string>>;
  claim: string;
  /** The claim judged on our runs: a verdict sentence. */
  verdict: (byAlgo: Map<string, LoadedRun[]>) => string;
}

/** Mean training success of a run's first three iterations. */
function startSuccess(r: LoadedRun): number {
  const v = r.rows
    .slice(0, 3)
    .map((row) => row['rollout/successRate'])
    .filter((x): x is number => typeof x === 'number');
  return mean(v);
}

const trapped = (rs: readonly LoadedRun[]) => rs.filter((r) => r.summary.echoTrap).length;
/**
 * A run that went down without tripping the detector: its (smoothed) final training success is
 * below half its start. The detector needs a rise above the start before a fall, so a run that
 * only falls (a crash, or a peak inside its warm-up) can end at 0 unseen by it, and must not
 * count as stable.
 */
export const fell = (r: LoadedRun) => !r.summary.echoTrap && r.summary.finalSuccess < 0.5 * startSuccess(r);
const fellCount = (rs: readonly LoadedRun[]) => rs.filter(fell).length;
/** Trapped or fell, for a majority of the runs. */
const majority = (rs: readonly LoadedRun[]) => (trapped(rs) + fellCount(rs)) * 2 >= rs.length;
/** "trapped k/n", plus how many fell below half their start without tripping the detector. */
function downText(rs: readonly LoadedRun[]): string {
  const f = fellCount(rs);
  return `trapped ${trapped(rs)}/${rs.length}${f > 0 ? `, ${f} more fell below half its start` : ''}`;
}

/** Iterations a run held before its collapse (its whole length when it never collapsed). */
export function heldFor(r: LoadedRun): number {
  return r.summary.echoTrap && r.summary.collapseIteration !== null
    ? r.summary.collapseIteration
    : r.summary.iterations;
}

function ppoOverGrpo(byAlgo: Map<string, LoadedRun[]>): string {
  const ppo = byAlgo.get('starpo-ppo') ?? [];
  const grpo = byAlgo.get('starpo-grpo') ?? [];
  if (ppo.length === 0 || grpo.length === 0)
    return 'PPO longer than GRPO — not run (needs starpo-ppo and starpo-grpo runs)';
  const p = meanStd(ppo.map(heldFor)).mean;
  const g = meanStd(grpo.map(heldFor)).mean;
  const held = `PPO held ${p.toFixed(1)} iterations on average (trapped ${trapped(ppo)}/${ppo.length}), GRPO ${g.toFixed(1)} (trapped ${trapped(grpo)}/${grpo.length})`;
  if (trapped(ppo) === 0 && trapped(grpo) === 0)
    return `PPO longer than GRPO — not separated: neither collapsed within the run; ${held}`;
  return `PPO longer than GRPO — ${p > g ? 'seen' : 'not seen'}: ${held}`;
}

function sStable(byAlgo: Map<string, LoadedRun[]>): string {
  const s = byAlgo.get('starpo-s') ?? [];
  if (s.length === 0) return 'not run';
  const rec = s.filter((r) => r.summary.echoTrap && r.summary.recovered).length;
  const traps = `${downText(s)}${rec > 0 ? `, ${rec} recovered` : ''}`;
  return `${majority(s) ? 'not seen' : 'seen'}: ${traps}`;
}

function filteringVerdict(byAlgo: Map<string, LoadedRun[]>): string {
  const ppo = byAlgo.get('starpo-ppo') ?? [];
  const s = byAlgo.get('starpo-s') ?? [];
  if (ppo.length === 0 || s.length === 0) return 'not run (needs starpo-ppo and starpo-s runs)';
  const a = `vanilla StarPO ${downText(ppo)}`;
  const b = `StarPO-S ${downText(s)}`;
  if (majority(ppo) && !majority(s)) return `seen: ${a}, ${b}`;
  if (!majority(ppo)) return `not seen: ${a} (no collapse to prevent), ${b}`;
  return `not seen: ${a}, and ${b} as well`;
}

const PAPER: Readonly<Record<string, PaperCurves>> = {
  'bandit/Bandit': {
    label: 'Bandit',
    curves: {
      'starpo-ppo': 'peaks ≈ 0.75 near step 100, then collapses (gradient-norm spike at step 170)',
      'starpo-grpo': 'collapses by step 20',
      'starpo-s': '≈ 1.0 at step 200',
    },
    claim: 'PPO holds longer than GRPO; StarPO-S does not collapse',
    verdict: (byAlgo) => `${ppoOverGrpo(byAlgo)}; StarPO-S stable — ${sStable(byAlgo)}`,
  },
  'frozenlake/FrozenLake-4x4': {
    label: 'FrozenLake',
    curves: {
      'starpo-ppo': 'peaks ≈ 0.19 at step 60, 0 by step ~130',
      'starpo-grpo': 'stable at ≈ 0.20–0.24',
      'starpo-s': '≈ 0.20 at step 200',
    },
    claim: 'vanilla StarPO collapses; StarPO-S stays stable',
    verdict: filteringVerdict,
  },
  'sokoban/Sokoban-6x6': {
    label: 'Sokoban',
    curves: {
      'starpo-ppo': 'peaks ≈ 0.12 around steps 30–50, 0 by step ~90',
      'starpo-grpo': 'collapses by step 10',
      'starpo-s': '≈ 0.19 at step 200',
    },
    claim: 'vanilla StarPO collapses; StarPO-S stays stable',
    verdict: filteringVerdict,
  },
};

/** Whether the paper describes curves for this env. */
export function hasPaperCurves(env: string): boolean {
  return env in PAPER;
}

const f2 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(2));

/** The "beside the paper" section of one RAGEN env from its steps-matched runs ('' if none). */
export function besidePaperSection(env: string, matched: readonly LoadedRun[]): string {
  const paper = PAPER[env];
  if (!paper || matched.length === 0) return '';
  const byAlgo = new Map<string, LoadedRun[]>();
  for (const r of matched) byAlgo.set(r.algo, [...(byAlgo.get(r.algo) ?? []), r]);
  const iterations = Math.max(...matched.map((r) => r.summary.iterations));
  const lines = [
    `### Beside the paper: ${paper.label}`,
    '',
    `The paper's column is its validation success as RAGEN's paper reports it (Qwen2.5-0.5B, 200 steps). Ours is training success of the nano model over at most ${iterations} iterations, steps matched, mean over seeds; "held" counts iterations before the echo-trap detector fired (the whole run when it never did); the detector needs a rise above the run's start before a fall, so a run that ends below half its starting success without tripping it is counted as fallen, not stable. Different model, scale and metric: compare shapes, not values.`,
    '',
    '| algorithm | paper (described) | our runs | start → peak → final (train) | echo traps (detector) | held (iterations) |',
    '|---|---|---|---|---|---|',
  ];
  for (const algo of ['starpo-ppo', 'starpo-grpo', 'starpo-s']) {
    const rs = byAlgo.get(algo) ?? [];
    const described = paper.curves[algo] ?? '–';
    if (rs.length === 0) {
      lines.push(`| ${algo} | ${described} | 0 | not run | – | – |`);
      continue;
    }
    const start = meanStd(rs.map(startSuccess)).mean;
    const peak = meanStd(rs.map((r) => r.summary.peakSuccess)).mean;
    const final = meanStd(rs.map((r) => r.summary.finalSuccess)).mean;
    const recovered = rs.filter((r) => r.summary.echoTrap && r.summary.recovered).length;
    const f = fellCount(rs);
    const notes = [
      recovered > 0 ? `${recovered} recovered` : '',
      f > 0 ? `${f} more fell below half its start` : '',
    ]
      .filter((x) => x !== '')
      .join('; ');
    const traps = `${trapped(rs)}/${rs.length}${notes !== '' ? ` (${notes})` : ''}`;
    lines.push(
      `| ${algo} | ${described} | ${rs.length} | ${f2(start)} → ${f2(peak)} → ${f2(final)} | ${traps} | ${meanStd(rs.map(heldFor)).mean.toFixed(1)} |`,
    );
  }
  lines.push('', `**The paper's shape:** ${paper.claim}. **Here:** ${paper.verdict(byAlgo)}.`, '');
  return lines.join('\n');
}
