// The guided tour's card and highlight: a floating card (step k of n, Back / Next, replay speed)
// and outlines drawn over the step's target elements, kept in place while the page scrolls or
// resizes. Entering a step runs its `enter` (tourSteps.tsx) against the loaded recordings.
import { useEffect, useRef, useState } from 'react';
import { useApp } from '../store/index.js';
import { loadRecordings, type Recordings } from './recordings.js';
import { Replayer } from './replay.js';
import { TOUR_STEPS, type TourContext } from './tourSteps.js';

export const SPEEDS: { label: string; value: number }[] = [
  { label: '2 it/s', value: 2 },
  { label: '5 it/s', value: 5 },
  { label: '10 it/s', value: 10 },
  { label: '30 it/s', value: 30 },
  { label: 'instant', value: Number.POSITIVE_INFINITY },
];

function Highlights({ targets }: { targets: string[] }) {
  const [boxes, setBoxes] = useState<DOMRect[]>([]);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      const rects = targets
        .map((t) => document.querySelector(`[data-testid="${t}"]`)?.getBoundingClientRect())
        .filter((r): r is DOMRect => r !== undefined && r.width > 0);
      setBoxes((old) =>
        old.length === rects.length && old.every((o, i) => JSON.stringify(o) === JSON.stringify(rects[i]))
          ? old
          : rects,
      );
    };
    const first = document.querySelector(`[data-testid="${targets[0]}"]`);
    first?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const id = setInterval(measure, 250);
    frame = requestAnimationFrame(measure);
    return () => {
      clearInterval(id);
      cancelAnimationFrame(frame);
    };
  }, [targets]);
  return (
    <>
      {boxes.map((b, i) => (
        <div
          key={targets[i] ?? i}
          className="tour-highlight"
          data-testid="tour-highlight"
          style={{ left: b.left - 4, top: b.top - 4, width: b.width + 8, height: b.height + 8 }}
        />
      ))}
    </>
  );
}

export function Tour() {
  const open = useApp((s) => s.tourOpen);
  const step = useApp((s) => s.tourStep);
  const speed = useApp((s) => s.tourSpeed);
  const load = useApp((s) => s.tourLoad);
  const error = useApp((s) => s.tourError);
  const position = useApp((s) => s.tourPosition);
  const setTour = useApp((s) => s.setTour);
  const [rec, setRec] = useState<Recordings | null>(null);
  const replayer = useRef<Replayer | null>(null);
  const speedRef = useRef(speed);
  speedRef.current = speed;

  useEffect(() => {
    if (!open || rec) return;
    setTour({ tourLoad: 'loading', tourError: null });
    loadRecordings().then(
      (r) => {
        replayer.current = new Replayer(r.starpo);
        setRec(r);
        setTour({ tourLoad: 'ready' });
      },
      (err: Error) => setTour({ tourLoad: 'failed', tourError: err.message }),
    );
  }, [open, rec, setTour]);

  useEffect(() => {
    if (!open || !rec || !replayer.current) return;
    const s = TOUR_STEPS[step];
    if (!s) return;
    const ctx: TourContext = { rec, replayer: replayer.current, speed: speedRef.current };
    setTour({ tourPlaying: true });
    Promise.resolve(s.enter(ctx)).finally(() => {
      if (useApp.getState().tourStep === step) setTour({ tourPlaying: false });
    });
  }, [open, rec, step, setTour]);

  useEffect(() => {
    if (!open) replayer.current?.stop();
  }, [open]);

  if (!open) return null;
  const s = TOUR_STEPS[step];
  const last = step === TOUR_STEPS.length - 1;
  const ctx = rec && replayer.current ? { rec, replayer: replayer.current, speed } : null;
  const closeTour = () => {
    replayer.current?.stop();
    useApp.getState().closeCompare();
    setTour({ tourOpen: false, tourStep: 0 });
  };
  return (
    <>
      {s && ctx ? <Highlights targets={s.targets} /> : null}
      <aside className="tour-card" aria-label="Guided tour" data-testid="tour-card">
        <div className="tour-head">
          <span className="tour-count">
            Step {step + 1} of {TOUR_STEPS.length}
          </span>
          <h3 data-testid="tour-step" data-step={s?.id}>
            {s?.title}
          </h3>
          <button type="button" className="small" data-testid="tour-close" onClick={closeTour}>
            Close
          </button>
        </div>
        <div className="tour-body" data-testid="tour-body">
          {load === 'loading' ? <p>Loading the recorded runs…</p> : null}
          {load === 'failed' ? (
            <p className="field-error" role="alert">
              The recorded runs could not be loaded: {error}
            </p>
          ) : null}
          {s && ctx ? s.body(ctx) : null}
        </div>
        <div className="tour-foot">
          <label>
            Replay speed{' '}
            <select
              data-testid="tour-speed"
              value={String(speed)}
              onChange={(e) => setTour({ tourSpeed: Number(e.target.value) })}
            >
              {SPEEDS.map((o) => (
                <option key={o.label} value={String(o.value)}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <span className="tour-position" data-testid="tour-position">
            iteration {position}
          </span>
          <button
            type="button"
            data-testid="tour-back"
            disabled={step === 0}
            onClick={() => setTour({ tourStep: step - 1 })}
          >
            Back
          </button>
          <button
            type="button"
            className="primary"
            data-testid="tour-next"
            disabled={!ctx}
            onClick={() => (last ? closeTour() : setTour({ tourStep: step + 1 }))}
          >
            {last ? 'Finish' : 'Next'}
          </button>
        </div>
      </aside>
    </>
  );
}
