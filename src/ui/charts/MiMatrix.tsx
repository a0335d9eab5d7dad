// RAGEN-2's cross-scoring matrix, live: each time the MI proxy is computed the trainer keeps the
// in-batch matrix L[i][j] = log p(z_i | x_j) (reasoning samples × prompts) with that iteration's
// sample (core/rl/trainer.ts MiSnapshot), and this panel draws it as a heatmap beside the MI and
// the retrieval accuracy against chance, with a slider over the iterations where it was computed.
// Each row is shown as p(x_j | z_i) = softmax_j L[i][j] — which prompt a reasoning sample points
// back to — so a healthy model's diagonal stands out and a templated one's rows are flat.
import { useState } from 'react';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import { useApp } from '../store/index.js';

/** Row-wise softmax of a log-probability matrix: p(x_j | z_i) under a uniform prior on prompts. */
export function rowPosteriors(matrix: readonly (readonly number[])[]): number[][] {
  return matrix.map((row) => {
    const m = Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / s);
  });
}

const short = (text: string, n: number) => (text.length > n ? `…${text.slice(-n)}` : text);

/** The matrix as a table: rows z_i (reasoning), columns x_j (prompts), p(x_j | z_i) in each cell. */
function MatrixTable({
  post,
  matrix,
  prompts,
  thinks,
}: {
  post: number[][];
  matrix: readonly (readonly number[])[];
  prompts: readonly string[];
  thinks: readonly string[];
}) {
  return (
    <table className="mi-grid" aria-label="p(prompt x_j | reasoning z_i), rows z_i, columns x_j">
      <thead>
        <tr>
          <th scope="col" className="mi-corner">
            z ↓ · x →
          </th>
          {post.map((_, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are positions in the matrix
            <th key={j} scope="col" title={prompts[j]} data-testid="mi-col">
              x{j + 1}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {post.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the matrix
          <tr key={i}>
            <th scope="row" title={thinks[i]} data-testid="mi-row">
              z{i + 1}
            </th>
            {row.map((p, j) => (
              <td
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positions in the matrix
                key={j}
                data-testid="mi-cell"
                data-diagonal={i === j}
                className={`${i === j ? 'mi-diag ' : ''}${p > 0.55 ? 'mi-dark' : ''}`}
                style={{ background: `rgba(46, 134, 171, ${p.toFixed(3)})` }}
                title={`log p(z${i + 1} | x${j + 1}) = ${(matrix[i]?.[j] ?? Number.NaN).toFixed(2)}; p(x${j + 1} | z${i + 1}) = ${p.toFixed(2)}\nz${i + 1}: ${short(thinks[i] ?? '', 80)}\nx${j + 1}: ${short(prompts[j] ?? '', 80)}`}
              >
                {p.toFixed(2)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MiMatrix() {
  const samples = useApp((s) => s.samples);
  const withMi = samples.filter((s): s is SampledTrajectory & { mi: NonNullable<SampledTrajectory['mi']> } =>
    Boolean(s.mi),
  );
  const [picked, setPicked] = useState<number | null>(null);
  if (withMi.length === 0) return null;
  const index = picked === null || picked >= withMi.length ? withMi.length - 1 : picked;
  const s = withMi[index] as (typeof withMi)[number];
  const { matrix, prompts, thinks, mi, retrievalAcc } = s.mi;
  const n = matrix.length;
  const post = rowPosteriors(matrix);
  return (
    <section className="mi-matrix region" data-testid="mi-matrix" data-iteration={s.iteration} data-n={n}>
      <h3>Cross-scoring matrix (reasoning × prompts), iteration {s.iteration}</h3>
      <label className="mi-slider">
        Iteration{' '}
        <input
          type="range"
          min={0}
          max={withMi.length - 1}
          value={index}
          data-testid="mi-slider"
          onChange={(e) => setPicked(Number(e.target.value))}
        />{' '}
        {withMi.map((w) => w.iteration).join(' · ')}
      </label>
      <p className="mi-values" data-testid="mi-values">
        MI {mi.toFixed(3)} nats, on a scale from below 0 up to log {n} = {Math.log(n).toFixed(3)} (0: the
        thinking fits every prompt equally; below 0: it fits other prompts better than its own) · retrieval
        accuracy {(100 * retrievalAcc).toFixed(0)}% against {(100 / n).toFixed(0)}% by chance · N = {n}{' '}
        distinct prompts
      </p>
      <MatrixTable post={post} matrix={matrix} prompts={prompts} thinks={thinks} />
      <p className="note">
        Row z<sub>i</sub> is a reasoning sample, column x<sub>j</sub> a prompt of the same iteration; each
        cell is p(x<sub>j</sub> | z<sub>i</sub>), how strongly that reasoning points back to that prompt (a
        row sums to 1); the outlined diagonal is its own prompt. A healthy model's diagonal stands out: what
        it thinks depends on what it sees. Under template collapse every row looks the same and MI falls to 0;
        below 0 the reasoning fits other prompts better than its own. N counts distinct prompts: groups that
        drew the same start state share one, so N can be below the MI samples setting. Hover a row or column
        label for its text.
      </p>
    </section>
  );
}
