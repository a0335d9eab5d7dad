// The base model for the next run: a shipped model for this env (public/models/index.json), a
// stored run's checkpoint for this env, or an untrained random-init policy — said plainly when
// that is all there is.
import { useApp } from '../store/index.js';

export function BaseModelSelect({ disabled }: { disabled: boolean }) {
  const env = useApp((s) => s.config.env);
  const models = useApp((s) => s.baseModels);
  const runs = useApp((s) => s.storedRuns);
  const choice = useApp((s) => s.baseChoice);
  const setChoice = useApp((s) => s.setBaseChoice);
  const forEnv = models.filter((m) => m.env === env);
  const checkpoints = runs.filter((r) => r.hasCheckpoint && r.config.env === env);
  const options = [
    ...forEnv.map((m) => ({
      value: `model:${m.id}`,
      label: `${m.id} (${m.size}${m.greedySuccess !== undefined ? `, greedy success ${Math.round(m.greedySuccess * 100)}%` : ''})`,
    })),
    ...checkpoints.map((r) => ({
      value: `run:${r.id}`,
      label: `checkpoint of "${r.name}" (iteration ${r.iteration})`,
    })),
    { value: '', label: 'untrained (random init)' },
  ];
  // 'auto' (and a choice made for another env) means the env's first shipped model, else untrained.
  const value = options.some((o) => o.value === choice) ? choice : forEnv[0] ? `model:${forEnv[0].id}` : '';
  return (
    <div className="field">
      <label htmlFor="field-base">Base model</label>
      <select
        id="field-base"
        data-testid="field-base"
        value={value}
        disabled={disabled}
        onChange={(e) => setChoice(e.target.value)}
        aria-describedby="field-base-help"
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <small id="field-base-help" className="field-help">
        {value === '' ? (
          <span className="untrained-note" data-testid="untrained-base">
            Untrained base: {forEnv.length === 0 ? 'no base model exists for this environment yet, so ' : ''}
            the policy starts from random weights and writes mostly malformed answers.
          </span>
        ) : (
          'Starting weights; the reference policy for KL is a frozen copy.'
        )}
      </small>
    </div>
  );
}
