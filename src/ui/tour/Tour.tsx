// The guided tour's card and highlight: a floating card (step k of n, Back / Next, replay speed)
// placed where it covers none (or the least) of what it points at (cardPlacement.ts), and
// outlines drawn over the step's target elements, kept in place while the page scrolls or
// resizes. Entering a step runs its `enter` (tourSteps.tsx) against the loaded recordings;
// Finish leaves the setup on the preset of the experiment the tour described, ready for Start.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { PRESETS } from '../../core/presets.js';
import { useEscapeToClose } from '../components/OverlayPanel.js';
import { useApp } from '../store/index.js';
import { placeCard } from './cardPlacement.js';
import { loadRecordings, type Recordings } from './recordings.js';
import { Replayer } from './replay.js';
import { presetFor, stepTargets, TOUR_STEPS, type TourContext } from './tourSteps.js';

export const SPEEDS: { label: string; value: number }[] = [
  { label: '2 it/s', value: 2 },
  { label: '5 it/s', value: 5 },
  { label: '10 it/s', value: 10 },
  { label: '30 it/s', value: 30 },
  { label: 'instant', value: Number.POSITIVE_INFINITY },
];

const sameBoxes = (a: readonly DOMRect[], b: readonly DOMRect[]) =>
  a.length === b.length && a.every((o, i) => JSON.stringify(o) === JSON.stringify(b[i]));

/** The targets' boxes, kept current while the page scrolls or resizes; scrolls the first into view. */
function useTargetBoxes(targets: readonly string[]): DOMRect[] {
  const [boxes, setBoxes] = useState<DOMRect[]>([]);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      const rects = targets
        .map((t) => document.querySelector(`[data-testid="${t}"]`)?.getBoundingClientRect())
        .filter((r): r is DOMRect => r !== undefined && r.width > 0);
      setBoxes((old) => (sameBoxes(old, rects) ? old : rects));
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
  return boxes;
}

function Highlights({ boxes, targets }: { boxes: DOMRect[]; targets: readonly string[] }) {
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

/** Sets the tour's setup to the preset of the experiment it described (the first recording's). */
function setUpDescribed(rec: Recordings | null): void {
  const name = rec ? presetFor(rec.starpo.meta.config) : null;
  const preset = name ? PRESETS[name] : undefined;
  if (!name || !preset) return;
  const s = useApp.getState();
  const errors = s.applyPreset(name);
  if (errors.length > 0)
    s.setNotice({
      kind: 'error',
      text: `The tour could not set up “${preset.title}”: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
    });
}

const NO_TARGETS: readonly string[] = [];

/** The recorded runs, loaded when the tour first opens, with the replayer over the StarPO one. */
function useRecordings(open: boolean) {
  const setTour = useApp((s) => s.setTour);
  const [rec, setRec] = useState<Recordings | null>(null);
  const replayer = useRef<Replayer | null>(null);
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
    if (!open) replayer.current?.stop();
    // Lets the compare view make room beside the card (features.css) instead of under it.
    document.body.classList.toggle('tour-open', open);
    return () => document.body.classList.remove('tour-open');
  }, [open]);
  return { rec, replayer };
}

/** Entering a step runs its `enter` against the recordings; the tour says it plays until done. */
function useStepEntry(
  open: boolean,
  rec: Recordings | null,
  replayer: React.RefObject<Replayer | null>,
  step: number,
  speedRef: React.RefObject<number>,
) {
  const setTour = useApp((s) => s.setTour);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are read when a step is entered, not tracked
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
}

/** Where the card goes: clear of its targets, re-placed as they move or the card grows. */
function useCardSpot(open: boolean, card: React.RefObject<HTMLElement | null>, boxes: DOMRect[]) {
  const [spot, setSpot] = useState<{ left: number; top: number } | null>(null);
  // Re-placed whenever the targets move or the card changes size (its text grows as it replays).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the card's ref is read when placing, not tracked
  useLayoutEffect(() => {
    const el = card.current;
    if (!open || !el) return;
    const place = () => {
      const next = placeCard(
        window.innerWidth,
        window.innerHeight,
        { width: el.offsetWidth, height: el.offsetHeight },
        boxes,
      );
      setSpot((old) => (old && old.left === next.left && old.top === next.top ? old : next));
    };
    place();
    const ro = new ResizeObserver(place);
    ro.observe(el);
    window.addEventListener('resize', place);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [open, boxes]);
  return spot;
}

/** Replay speed, the replay's iteration, Back and Next (Finish on the last step). */
function TourFoot({ step, ready, onFinish }: { step: number; ready: boolean; onFinish: () => void }) {
  const speed = useApp((s) => s.tourSpeed);
  const position = useApp((s) => s.tourPosition);
  const setTour = useApp((s) => s.setTour);
  const last = step === TOUR_STEPS.length - 1;
  return (
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
        disabled={!ready}
        onClick={() => (last ? onFinish() : setTour({ tourStep: step + 1 }))}
      >
        {last ? 'Finish' : 'Next'}
      </button>
    </div>
  );
}

export function Tour() {
  const open = useApp((s) => s.tourOpen);
  const step = useApp((s) => s.tourStep);
  const speed = useApp((s) => s.tourSpeed);
  const load = useApp((s) => s.tourLoad);
  const error = useApp((s) => s.tourError);
  const setTour = useApp((s) => s.setTour);
  const { rec, replayer } = useRecordings(open);
  const speedRef = useRef(speed);
  speedRef.current = speed;
  const card = useRef<HTMLElement>(null);
  const current = TOUR_STEPS[step];
  const targets = useMemo(
    () => (open && current && rec ? stepTargets(current, rec) : NO_TARGETS),
    [open, current, rec],
  );
  const boxes = useTargetBoxes(targets);
  useStepEntry(open, rec, replayer, step, speedRef);
  const spot = useCardSpot(open, card, boxes);

  // Escape ends the tour, as it closes every dialog (an explanation opened over it closes first).
  useEscapeToClose(open, () => {
    replayer.current?.stop();
    useApp.getState().closeCompare();
    setTour({ tourOpen: false, tourStep: 0 });
  });

  if (!open) return null;
  const s = TOUR_STEPS[step];
  const ctx = rec && replayer.current ? { rec, replayer: replayer.current, speed } : null;
  const closeTour = (finished = false) => {
    replayer.current?.stop();
    useApp.getState().closeCompare();
    if (finished) setUpDescribed(rec);
    setTour({ tourOpen: false, tourStep: 0 });
  };
  return (
    <>
      {s && ctx ? <Highlights boxes={boxes} targets={targets} /> : null}
      <aside
        ref={card}
        className="tour-card"
        aria-label="Guided tour"
        data-testid="tour-card"
        style={spot ? { left: spot.left, top: spot.top, bottom: 'auto' } : undefined}
      >
        <div className="tour-head">
          <span className="tour-count">
            Step {step + 1} of {TOUR_STEPS.length}
          </span>
          <h3 data-testid="tour-step" data-step={s?.id}>
            {s?.title}
          </h3>
          <button type="button" className="small" data-testid="tour-close" onClick={() => closeTour()}>
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
        <TourFoot step={step} ready={Boolean(ctx)} onFinish={() => closeTour(true)} />
      </aside>
    </>
  );
}
