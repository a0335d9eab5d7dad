// The charts of the centre region, in order: which metrics each draws. Titles,
// explanations and the log scale come from core's METRICS table (a chart is logarithmic when
// its metrics are), so each is declared once; a misspelt metric key does not compile.
import { type MetricKey, metricByKey } from '../../core/metrics/keys.js';

interface ChartRow {
  id: string;
  title: string;
  keys: readonly MetricKey[];
  /** Fixed y range (rates), else automatic. */
  domain?: [number, number];
}

export interface ChartSpec extends ChartRow {
  /** A log y axis: every metric of the chart is charted on a log scale (METRICS `log`). */
  log: boolean;
}

// biome-ignore format: one row per chart reads as a table
const ROWS: readonly ChartRow[] = [
  { id: 'success', title: 'Success', keys: ['rollout/successRate', 'eval/successRate', 'eval/sampledSuccessRate'], domain: [0, 1] },
  { id: 'return', title: 'Return', keys: ['rollout/returnMean'] },
  { id: 'reward-std', title: 'In-group reward std', keys: ['rollout/inGroupRewardStd'] },
  { id: 'zero-std', title: 'Zero-std groups', keys: ['rollout/zeroStdShare'], domain: [0, 1] },
  { id: 'kl', title: 'KL', keys: ['actor/klRef', 'actor/approxKl'] },
  { id: 'entropy', title: 'Entropy', keys: ['actor/entropy'] },
  { id: 'grad-norm', title: 'Gradient norm', keys: ['actor/gradNorm'] },
  { id: 'grad-split', title: 'Gradient split (task, KL, entropy)', keys: ['actor/gradNorm/task', 'actor/gradNorm/kl', 'actor/gradNorm/entropy'] },
  { id: 'clip-frac', title: 'Clip fraction', keys: ['actor/clipFrac'] },
  { id: 'lengths', title: 'Response and think length', keys: ['rollout/responseLength', 'rollout/thinkLength'] },
  { id: 'malformed', title: 'Malformed turns', keys: ['rollout/malformedRate'], domain: [0, 1] },
  { id: 'mi', title: 'Reasoning and action MI', keys: ['reasoning/mi', 'reasoning/actionMi'] },
  { id: 'templates', title: 'Thinking templates', keys: ['reasoning/modalThinkShare', 'reasoning/distinct2'], domain: [0, 1] },
  { id: 'losses', title: 'Losses', keys: ['actor/pgLoss', 'actor/dpoLoss', 'critic/vfLoss'] },
  { id: 'kept', title: 'Kept ratio', keys: ['rollout/filterKeptRatio'], domain: [0, 1] },
  { id: 'time', title: 'Time per iteration (ms)', keys: ['time/rolloutMs', 'time/scoringMs', 'time/policyMs', 'time/criticMs', 'time/criticWaitMs', 'time/updateMs', 'time/measureMs'] },
];

export const CHARTS: readonly ChartSpec[] = ROWS.map((row) => ({
  ...row,
  log: row.keys.every((k) => metricByKey.get(k)?.log === true),
}));

/** Label and help of a metric key (the key itself when the table lacks it). */
export function metricText(key: string): { label: string; help: string } {
  const m = metricByKey.get(key);
  return { label: m?.label ?? key, help: m?.help ?? '' };
}
