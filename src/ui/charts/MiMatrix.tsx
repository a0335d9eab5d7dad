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
        MI {mi.toFixed(3)} nats (at most log {n} = {Math.log(n).toFixed(3)}) · retrieval accuracy{' '}
        {(100 * retrievalAcc).toFixed(0)}% against {(100 / n).toFixed(0)}% by chance
      </p>
      <table className="mi-grid">
        <tbody>
          {post.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the matrix
            <tr key={i}>
              <th scope="row" title={thinks[i]}>
                z{i + 1}
              </th>
              {row.map((p, j) => (
                <td
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positions in the matrix
                  key={j}
                  data-testid="mi-cell"
                  data-diagonal={i === j}
                  className={i === j ? 'mi-diag' : undefined}
                  style={{ background: `rgba(46, 134, 171, ${p.toFixed(3)})` }}
                  title={`log p(z${i + 1} | x${j + 1}) = ${(matrix[i]?.[j] ?? Number.NaN).toFixed(2)}; p(x${j + 1} | z${i + 1}) = ${p.toFixed(2)}\nz${i + 1}: ${short(thinks[i] ?? '', 80)}\nx${j + 1}: ${short(prompts[j] ?? '', 80)}`}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">
        Row i is reasoning sample z<sub>i</sub> scored under every prompt x<sub>j</sub> of the batch, shaded
        by how strongly it points back to each (p(x<sub>j</sub> | z<sub>i</sub>)); the diagonal is its own
        prompt. A healthy model's diagonal stands out: what it thinks depends on what it sees. Under template
        collapse every row looks the same — the thinking fits any input equally well — and MI falls toward 0.
        Hover a cell for the texts.
      </p>
    </section>
  );
}
