// The setup panel: presets, then the form generated from the config field table (TensorFlow
// Playground's state.ts idea) — environment as a select of registered ids, the base model,
// the algorithm (applying its switches) with the algorithm table, and every hyperparameter
// with its range and one-line help. Errors show at the field. While a run is active only the
// live fields stay editable; their changes go to the trainer and leave a chart marker.
import { type Config, FIELDS, type Field, type FieldGroup } from '../../core/config.js';
import { PRESETS } from '../../core/presets.js';
import { ALGORITHMS } from '../../core/variants/algorithms.js';
import { envIds } from '../../envs/registry.js';
import { useController } from '../controller/context.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import { useApp } from '../store/index.js';
import { AlgorithmTable } from './AlgorithmTable.js';
import { BaseModelSelect } from './BaseModelSelect.js';
import { PresetsBar } from './PresetsBar.js';

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

const ENV_IDS = envIds();

/** What a person reads for an option: an algorithm's name ("Dr. GRPO"), else the option itself. */
function optionLabel(key: string, option: string): string {
  if (key === 'algorithm') return ALGORITHMS[option as keyof typeof ALGORITHMS]?.label ?? option;
  return option;
}

/** The control of a field: the env list, a choice, a checkbox or a text box. */
function FieldControl({
  field,
  common,
  value,
  draft,
  change,
}: {
  field: Field;
  common: Record<string, unknown>;
  value: unknown;
  draft: string | undefined;
  change: (text: string) => void;
}) {
  if (field.key === 'env' || field.kind === 'enum') {
    const options = field.key === 'env' ? ENV_IDS : field.kind === 'enum' ? field.options : [];
    return (
      <select {...common} value={draft ?? String(value)} onChange={(e) => change(e.target.value)}>
        {options.map((o) => (
          <option key={o} value={o} title={o}>
            {optionLabel(field.key, o)}
          </option>
        ))}
      </select>
    );
  }
  if (field.kind === 'bool')
    return (
      <input
        {...common}
        type="checkbox"
        checked={Boolean(value)}
        onChange={(e) => change(String(e.target.checked))}
      />
    );
  return (
    <input
      {...common}
      type="text"
      inputMode={field.kind === 'string' ? 'text' : 'decimal'}
      spellCheck={false}
      value={draft ?? String(value)}
      onChange={(e) => change(e.target.value)}
    />
  );
}

/** A field's label with where its value comes from (base model, preset), "live", and its "?". */
function FieldLabel({ field, id, source }: { field: Field; id: string; source: string | undefined }) {
  return (
    <label htmlFor={id} title={field.help}>
      {field.label}
      {source === 'base' || source === 'preset' ? (
        <span
          className={`source-tag source-${source}`}
          data-testid={`source-${field.key}`}
          title={
            source === 'base'
              ? 'The base model was trained for this value; change it and the policy acts in contexts it never saw'
              : 'Set by the chosen preset'
          }
        >
          {source === 'base' ? 'base model' : 'preset'}
        </span>
      ) : null}
      {field.live ? (
        <span className="live-tag" title="Can change while a run is going; a marker shows on the charts">
          live
        </span>
      ) : null}
      <ExplainButton
        title={field.label}
        items={[{ kind: 'field', key: field.key }]}
        testId={`explain-field-${field.key}`}
      />
    </label>
  );
}

function FieldInput({ field, locked }: { field: Field; locked: boolean }) {
  const value = useApp((s) => s.values[field.key as keyof typeof s.values]);
  const source = useApp((s) => s.sources[field.key as keyof typeof s.sources]);
  const draft = useApp((s) => s.drafts[field.key]);
  const error = useApp((s) => s.configErrors.find((e) => e.field === field.key));
  const setField = useApp((s) => s.setField);
  // The preset's reason for its value, shown where the value is set by it.
  const reason = useApp((s) =>
    source === 'preset' && s.preset ? PRESETS[s.preset]?.reasons[field.key as keyof Config] : undefined,
  );
  const { applyLive } = useController();
  const id = `field-${field.key}`;
  const change = (text: string) => {
    setField(field.key, text);
    const s = useApp.getState();
    if (field.live && !s.configErrors.some((e) => e.field === field.key)) {
      applyLive(field.key, s.config[field.key as keyof Config]);
    }
  };
  const common = {
    id,
    'data-testid': id,
    disabled: locked && !field.live,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': `${id}-help`,
  };
  const range = field.kind === 'int' || field.kind === 'float' ? `${field.min} – ${field.max}` : '';
  return (
    <div className={`field${error ? ' field-invalid' : ''}${field.kind === 'bool' ? ' field-bool' : ''}`}>
      <FieldLabel field={field} id={id} source={source} />
      <FieldControl field={field} common={common} value={value} draft={draft} change={change} />
      <small id={`${id}-help`} className="field-help">
        {field.help}
        {range ? <span className="field-range"> Range {range}.</span> : null}
      </small>
      {reason ? (
        <small className="field-reason" data-testid={`reason-${field.key}`}>
          Why this value: {reason}.
        </small>
      ) : null}
      {error ? (
        <small className="field-error" role="alert" data-testid={`field-error-${field.key}`}>
          {field.label}: {error.message}
        </small>
      ) : null}
    </div>
  );
}

export function SetupPanel() {
  const status = useApp((s) => s.runStatus);
  const locked =
    status === 'running' || status === 'paused' || status === 'starting' || status === 'stopping';
  const groups = [...new Set(FIELDS.map((f) => f.group))];
  // A group holding a field with an error opens, so the error is in view.
  const errorFields = useApp((s) => s.configErrors.map((e) => e.field).join(','));
  const errorGroups = new Set(
    FIELDS.filter((f) => errorFields.split(',').includes(f.key)).map((f) => f.group),
  );
  return (
    <aside className="setup-panel region" data-testid="setup-panel" aria-label="Experiment setup">
      <h2>Setup</h2>
      <PresetsBar disabled={locked} />
      {locked ? (
        <p className="note" data-testid="setup-locked">
          A run is active: only <span className="live-tag">live</span> settings change now. Stop or Reset to
          edit the rest.
        </p>
      ) : null}
      {groups.map((g) => (
        <details
          key={g}
          open={g === 'run' || g === 'rollout' || errorGroups.has(g)}
          className="field-group"
          data-testid={`group-${g}`}
        >
          <summary>{GROUP_TITLES[g]}</summary>
          {FIELDS.filter((f) => f.group === g).map((f) => (
            <div key={f.key}>
              <FieldInput field={f} locked={locked} />
              {f.key === 'env' ? <BaseModelSelect disabled={locked} /> : null}
              {f.key === 'algorithm' ? <AlgorithmTable /> : null}
            </div>
          ))}
        </details>
      ))}
    </aside>
  );
}
