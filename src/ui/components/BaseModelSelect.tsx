// The base model for the next run: a shipped model for this env and size
// (public/models/index.json), a stored run's checkpoint for this env, or an untrained
// random-init policy — said plainly when that is all there is. The choice is resolved in
// store/baseChoice.ts, the same function that gives the setup its episode settings.
import { baseLayerOf, choiceValue, chooseBase } from '../store/baseChoice.js';
import { useApp } from '../store/index.js';

export function BaseModelSelect({ disabled }: { disabled: boolean }) {
  const env = useApp((s) => s.values.env);
  const size = useApp((s) => s.values.modelSize);
  const models = useApp((s) => s.baseModels);
  const runs = useApp((s) => s.storedRuns);
  const choice = useApp((s) => s.baseChoice);
  const setChoice = useApp((s) => s.setBaseChoice);
  const forEnv = models.filter((m) => m.env === env && m.size === size);
  const checkpoints = runs.filter((r) => r.hasCheckpoint && r.config.env === env);
  const options = [
    ...forEnv.map((m) => ({
      value: `model:${m.id}`,
      label: `${m.id} (${m.size}, greedy success ${Math.round(m.greedySuccess * 100)}%)`,
    })),
    ...checkpoints.map((r) => ({
      value: `run:${r.id}`,
      label: `checkpoint of "${r.name}" (iteration ${r.iteration})`,
    })),
    { value: '', label: 'untrained (random init)' },
  ];
  const chosen = chooseBase(choice, env, size, models, runs);
  const value = choiceValue(chosen);
  const layer = baseLayerOf(chosen);
  const trained = layer
    ? Object.entries(layer.settings)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '';
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
      <small id="field-base-help" className="field-help" data-testid="base-help">
        {chosen.kind === 'fresh' ? (
          <span className="untrained-note" data-testid="untrained-base">
            Untrained base:{' '}
            {chosen.reason === 'none-for-env' ? 'no base model exists for this environment yet, so ' : ''}
            the policy starts from random weights and writes mostly malformed answers.
          </span>
        ) : (
          <>
            Starting weights; the reference policy for KL is a frozen copy. Trained for: {trained} (fields
            marked <span className="source-tag">base model</span>).
          </>
        )}
      </small>
    </div>
  );
}
