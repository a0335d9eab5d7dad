// The algorithm table: each named preset of switches with its one-line summary;
// choosing a row applies its switches, like the Algorithm select.
import { ALGORITHMS } from '../../core/variants/algorithms.js';
import { useApp } from '../store/index.js';

export function AlgorithmTable() {
  const current = useApp((s) => s.config.algorithm);
  const status = useApp((s) => s.runStatus);
  const setField = useApp((s) => s.setField);
  const locked =
    status === 'running' || status === 'paused' || status === 'starting' || status === 'stopping';
  return (
    <details className="algo-table">
      <summary>What each algorithm does</summary>
      <table data-testid="algorithm-table">
        <tbody>
          {Object.values(ALGORITHMS).map((a) => (
            <tr key={a.name} className={a.name === current ? 'current' : undefined}>
              <th scope="row">
                <button
                  type="button"
                  className="link"
                  disabled={locked}
                  onClick={() => setField('algorithm', a.name)}
                >
                  {a.name}
                </button>
              </th>
              <td>{a.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
