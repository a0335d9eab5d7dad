// The setup panel: generated from the config field table, validated as you type, with the
// error shown at the field and a one-line explanation under each.
import { FIELDS, type Field, type FieldGroup } from '../../core/config.js';
import { useApp } from '../store/index.js';

const GROUP_TITLES: Record<FieldGroup, string> = {
  run: 'Experiment',
  rollout: 'Rollouts',
  reward: 'Reward',
  advantage: 'Advantage',
  filter: 'StarPO-S filter',
  loss: 'Loss',
  optim: 'Optimizer',
  eval: 'Evaluation',
};

function FieldInput({ field }: { field: Field }) {
  const value = useApp((s) => s.config[field.key as keyof typeof s.config]);
  const draft = useApp((s) => s.drafts[field.key]);
  const error = useApp((s) => s.configErrors.find((e) => e.field === field.key));
  const setField = useApp((s) => s.setField);
  const id = `field-${field.key}`;
  const common = {
    id,
    'data-testid': id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': `${id}-help`,
  };
  let input: React.ReactNode;
  if (field.kind === 'enum') {
    input = (
      <select
        {...common}
        value={draft ?? String(value)}
        onChange={(e) => setField(field.key, e.target.value)}
      >
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'bool') {
    input = (
      <input
        {...common}
        type="checkbox"
        checked={Boolean(value)}
        onChange={(e) => setField(field.key, String(e.target.checked))}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type="text"
        inputMode={field.kind === 'string' ? 'text' : 'decimal'}
        spellCheck={false}
        value={draft ?? String(value)}
        onChange={(e) => setField(field.key, e.target.value)}
      />
    );
  }
  const range = field.kind === 'int' || field.kind === 'float' ? `${field.min} – ${field.max}` : '';
  return (
    <div className={`field${error ? ' field-invalid' : ''}${field.kind === 'bool' ? ' field-bool' : ''}`}>
      <label htmlFor={id} title={field.help}>
        {field.label}
        {field.live ? (
          <span className="live-tag" title="Can change while a run is going">
            live
          </span>
        ) : null}
      </label>
      {input}
      <small id={`${id}-help`} className="field-help">
        {field.help}
        {range ? <span className="field-range"> Range {range}.</span> : null}
      </small>
      {error ? (
        <small className="field-error" role="alert" data-testid={`field-error-${field.key}`}>
          {field.label}: {error.message}
        </small>
      ) : null}
    </div>
  );
}

export function SetupPanel() {
  const groups = [...new Set(FIELDS.map((f) => f.group))];
  return (
    <aside className="setup-panel region" data-testid="setup-panel" aria-label="Experiment setup">
      <h2>Setup</h2>
      {groups.map((g) => (
        <details key={g} open={g === 'run' || g === 'rollout'} className="field-group">
          <summary>{GROUP_TITLES[g]}</summary>
          {FIELDS.filter((f) => f.group === g).map((f) => (
            <FieldInput key={f.key} field={f} />
          ))}
        </details>
      ))}
    </aside>
  );
}
