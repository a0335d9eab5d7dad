// Reasoning across inputs at one iteration (opened by clicking an iteration on any chart): every
// paired group's start state drawn small, its rollouts' thinking and first actions, and — on the
// iterations where the MI proxy was computed — the frozen base model's on the same start states.
// Thinking strings that occur more than once in the iteration are marked, so template collapse is
// seen, or seen to be absent; the iteration's modal think share, distinct-2 and action MI are
// shown from its metric row. The snapshot comes from the iteration's stored sample
// (core/rl/trainer.ts ReasoningSnapshot); iterations without one say so.
import { useMemo, useState } from 'react';
import type { FirstTurn, SampledTrajectory } from '../../core/rl/trainer.js';
import { makeEnv } from '../../envs/registry.js';
import { OverlayPanel } from '../components/OverlayPanel.js';
import { baseFor } from '../controller/baseFor.js';
import { useController } from '../controller/context.js';
import { useApp } from '../store/index.js';
import { runConfigOf, useRunBudget } from '../store/runConfig.js';
import { EnvView } from './EnvView.js';

/** The start state's picture in each group card, square. */
const REASONING_VIEW_SIZE = 160;

/** How often each thinking string occurs among `turns` (the iteration's rollouts). */
export function thinkCounts(turns: readonly FirstTurn[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of turns) m.set(t.think, (m.get(t.think) ?? 0) + 1);
  return m;
}

/** The start state's view for `seed` (null when the env cannot be made here). */
function startView(env: string, seed: number): unknown {
  try {
    const e = makeEnv(env);
    e.reset(seed);
    return e.view();
  } catch {
    return null;
  }
}

function Turns({
  turns,
  counts,
  label,
}: {
  turns: readonly FirstTurn[];
  counts: Map<string, number>;
  label: string;
}) {
  return (
    <div className="reasoning-turns">
      <h5>{label}</h5>
      <ol>
        {turns.map((t, i) => {
          const n = counts.get(t.think) ?? 1;
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: rollouts are positions in their group
              key={i}
              className={t.success ? 'ok' : undefined}
              data-repeated={n > 1}
              title={t.success ? 'this rollout succeeded' : undefined}
            >
              <span className="think">{t.think || '(empty thinking)'}</span>
              {n > 1 ? (
                <span
                  className="repeat"
                  title="the same thinking string occurs this many times in the iteration"
                >
                  ×{n}
                </span>
              ) : null}{' '}
              → <code>{t.action}</code>
              {t.success ? ' ✓' : ''}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** One paired group: its start state, its rollouts' first turns and the base model's beside them. */
function GroupCard({
  group: g,
  index,
  env,
  budget,
  counts,
  baseCounts,
}: {
  group: NonNullable<SampledTrajectory['reasoning']>['groups'][number];
  index: number;
  env: string;
  budget: number | undefined;
  counts: Map<string, number>;
  baseCounts: Map<string, number>;
}) {
  const view = startView(env, g.seed);
  return (
    <article className="reasoning-group" data-testid="reasoning-group" data-seed={g.seed}>
      <h4>
        Group {index + 1} · start seed {g.seed}
      </h4>
      <div className="reasoning-view">
        {view ? <EnvView view={view} budget={budget} size={REASONING_VIEW_SIZE} /> : null}
      </div>
      <div className={`reasoning-sides${g.base ? ' with-base' : ''}`}>
        <Turns turns={g.rollouts} counts={counts} label="this policy" />
        {g.base ? (
          <Turns turns={g.base} counts={baseCounts} label="the frozen base model, same start state" />
        ) : null}
      </div>
    </article>
  );
}

/** The base model's first turns sampled on demand for this iteration's groups (null: not asked). */
function useBaseOnDemand(iteration: number | null, seeds: readonly number[]) {
  const controller = useController();
  const status = useApp((s) => s.runStatus);
  const config = useApp((s) => runConfigOf(s));
  const [asked, setAsked] = useState<{ iteration: number; groups: FirstTurn[][] } | null>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const training = status === 'running' || status === 'starting' || status === 'stopping';
  const sampleBase = async () => {
    const client = controller.trainClient();
    if (!client || !config || iteration === null) return;
    setState({ busy: true, error: null });
    try {
      const { choice } = await baseFor(config);
      const groups = await client.baseReasoning(config, choice, [...seeds], iteration);
      setAsked({ iteration, groups });
      setState({ busy: false, error: null });
    } catch (err) {
      setState({ busy: false, error: (err as Error).message });
    }
  };
  return {
    groups: asked?.iteration === iteration ? asked.groups : null,
    training,
    ...state,
    sampleBase,
    can: Boolean(config),
  };
}

/** Offers to sample the base model now, for an iteration whose sample has none. */
function BaseOnDemandNote({ onDemand }: { onDemand: ReturnType<typeof useBaseOnDemand> }) {
  return (
    <p className="note" data-testid="reasoning-base-note">
      The frozen base model's reasoning is sampled with the run on the iterations where MI is computed; for
      this one, sample it now on the same start states.{' '}
      <button
        type="button"
        data-testid="reasoning-sample-base"
        disabled={onDemand.busy || onDemand.training || !onDemand.can}
        title={onDemand.training ? 'Pause the run first: the train worker is busy training' : ''}
        onClick={() => void onDemand.sampleBase()}
      >
        {onDemand.busy ? 'Sampling the base model…' : 'Sample the base model here'}
      </button>
      {onDemand.training ? ' (pause the run first)' : ''}
      {onDemand.error ? <span className="field-error"> {onDemand.error}</span> : null}
    </p>
  );
}

export function ReasoningPanel() {
  const iteration = useApp((s) => s.reasoningIteration);
  const samples = useApp((s) => s.samples);
  const rows = useApp((s) => s.rows);
  const env = useApp((s) => s.runEnv) ?? '';
  const budget = useRunBudget();
  const close = useApp((s) => s.openReasoning);
  const sample: SampledTrajectory | undefined = useMemo(
    () => (iteration === null ? undefined : samples.find((x) => x.iteration === iteration && x.reasoning)),
    [samples, iteration],
  );
  const seeds = useMemo(() => (sample?.reasoning?.groups ?? []).map((g) => g.seed), [sample]);
  const onDemand = useBaseOnDemand(iteration, seeds);
  if (iteration === null) return null;
  const row = rows.find((r) => r.iteration === iteration);
  const stored = sample?.reasoning?.groups ?? [];
  const groups = onDemand.groups
    ? stored.map((g, i) => ({ ...g, base: onDemand.groups?.[i] ?? g.base }))
    : stored;
  const all = groups.flatMap((g) => g.rollouts);
  const counts = thinkCounts(all);
  const baseCounts = thinkCounts(groups.flatMap((g) => g.base ?? []));
  const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(2));
  return (
    <OverlayPanel
      className="reasoning-panel"
      label="Reasoning across inputs"
      testId="reasoning-panel"
      data={{ iteration }}
      title={`Reasoning across inputs, iteration ${iteration}`}
      closeTestId="reasoning-close"
      onClose={() => close(null)}
    >
      <p className="note" data-testid="reasoning-metrics">
        Modal think share {f(row?.['reasoning/modalThinkShare'])} · distinct-2{' '}
        {f(row?.['reasoning/distinct2'])} · action MI {f(row?.['reasoning/actionMi'])} nats.
      </p>
      <p className="note reasoning-legend" data-testid="reasoning-legend">
        Each line is one rollout's first turn: its thinking → its first action.{' '}
        <span className="legend-repeat">Highlighted ×k</span>: the same thinking string occurs k times in the
        iteration (under template collapse one string answers every start state).{' '}
        <span className="legend-ok">Green with ✓</span>: the rollout succeeded. The picture is the group's
        start state; the step count reads against this run's action budget.
      </p>
      {groups.length === 0 ? (
        <p className="note">
          No reasoning snapshot is kept for this iteration (long runs keep about 200 of them, and every
          iteration where MI was computed): pick a nearby one.
        </p>
      ) : (
        <div className="reasoning-groups">
          {groups
            .map((g, position) => ({ g, gi: position, id: `group-${position}` }))
            .map(({ g, gi, id }) => (
              <GroupCard
                key={id}
                group={g}
                index={gi}
                env={env}
                budget={budget}
                counts={counts}
                baseCounts={baseCounts}
              />
            ))}
        </div>
      )}
      {groups.length > 0 && !groups[0]?.base ? <BaseOnDemandNote onDemand={onDemand} /> : null}
    </OverlayPanel>
  );
}
