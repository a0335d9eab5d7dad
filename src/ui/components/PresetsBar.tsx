// One-click presets (src/ui/presets.ts): each makes the setup that preset over the base
// model's settings (core/resolve.ts); the current one is shown pressed, and marked "edited" (no
// longer pressed) once any experiment field differs from it.
import { PRESETS } from '../presets.js';
import { presetEdited } from '../store/configSlice.js';
import { useApp } from '../store/index.js';

export function PresetsBar({ disabled }: { disabled: boolean }) {
  const apply = useApp((s) => s.applyPreset);
  const current = useApp((s) => s.preset);
  const edited = useApp((s) => presetEdited(s.edits));
  // What the current preset is and how long it runs, said before Start.
  const shown = PRESETS.find((p) => p.id === current);
  const setNotice = useApp((s) => s.setNotice);
  return (
    <fieldset className="presets">
      <legend className="sr-only">Presets</legend>
      {PRESETS.map((p) => (
        <button
          key={p.id}
          type="button"
          className={`preset${current === p.id ? (edited ? ' preset-edited' : ' preset-current') : ''}`}
          aria-pressed={current === p.id && !edited}
          data-testid={`preset-${p.id}`}
          disabled={disabled}
          title={`${p.description}${p.time ? ` — ${p.time}` : ''}`}
          onClick={() => {
            const errors = apply(p.id);
            if (errors.length)
              setNotice({ kind: 'error', text: errors.map((e) => `${e.field}: ${e.message}`).join('; ') });
          }}
        >
          {p.title}
          {current === p.id && edited ? ' (edited)' : ''}
        </button>
      ))}
      {shown ? (
        <div className="preset-note" data-testid="current-preset-note">
          {shown.note ? <p className="preset-note-lead">{shown.note}</p> : null}
          <details open={!shown.note}>
            <summary>{shown.note ? 'What was measured, and how long it runs' : 'About this preset'}</summary>
            <p>
              {shown.description}.{' '}
              <span data-testid="current-preset-time">
                {shown.time ? `Runs ${shown.time}.` : 'Its run time is not measured yet.'}
              </span>
            </p>
          </details>
        </div>
      ) : null}
    </fieldset>
  );
}
