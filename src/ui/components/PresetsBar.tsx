// One-click presets (src/ui/presets.ts): each makes the setup that preset over the base
// model's settings (core/resolve.ts); the current one is shown pressed.
import { PRESETS } from '../presets.js';
import { useApp } from '../store/index.js';

export function PresetsBar({ disabled }: { disabled: boolean }) {
  const apply = useApp((s) => s.applyPreset);
  const current = useApp((s) => s.preset);
  const setNotice = useApp((s) => s.setNotice);
  return (
    <fieldset className="presets">
      <legend className="sr-only">Presets</legend>
      {PRESETS.map((p) => (
        <button
          key={p.id}
          type="button"
          className={`preset${current === p.id ? ' preset-current' : ''}`}
          aria-pressed={current === p.id}
          data-testid={`preset-${p.id}`}
          disabled={disabled}
          title={p.description}
          onClick={() => {
            const errors = apply(p.id);
            if (errors.length)
              setNotice({ kind: 'error', text: errors.map((e) => `${e.field}: ${e.message}`).join('; ') });
          }}
        >
          {p.title}
        </button>
      ))}
    </fieldset>
  );
}
