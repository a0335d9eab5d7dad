// One-click presets (src/ui/presets.ts): each applies its overrides to the setup.
import { PRESETS } from '../presets.js';
import { useApp } from '../store/index.js';

export function PresetsBar({ disabled }: { disabled: boolean }) {
  const apply = useApp((s) => s.applyOverrides);
  const setNotice = useApp((s) => s.setNotice);
  return (
    <fieldset className="presets">
      <legend className="sr-only">Presets</legend>
      {PRESETS.map((p) => (
        <button
          key={p.id}
          type="button"
          className="preset"
          data-testid={`preset-${p.id}`}
          disabled={disabled}
          title={p.description}
          onClick={() => {
            const errors = apply(p.overrides);
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
