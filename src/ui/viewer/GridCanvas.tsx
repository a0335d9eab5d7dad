// A FrozenLake or Sokoban state on a canvas (drawGrid.ts), with the caption line under it that
// says in words what the picture shows (for screen readers and tests, and for the step count
// against the run's action budget).
import type { FrozenLakeView } from '../../envs/frozenlake/env.js';
import type { SokobanView } from '../../envs/sokoban/env.js';
import { drawFrozenLake, drawSokoban } from './drawGrid.js';
import { lakeCaption, sokobanCaption } from './envWords.js';
import { useSquareCanvas } from './useSquareCanvas.js';

type GridView = FrozenLakeView | SokobanView;

function draw(ctx: CanvasRenderingContext2D, view: GridView, size: number): void {
  if (view.kind === 'frozenlake') drawFrozenLake(ctx, view, size);
  else drawSokoban(ctx, view, size);
}

export function GridCanvas({
  view,
  budget,
  size = 240,
}: {
  view: GridView;
  budget?: number | undefined;
  size?: number;
}) {
  const ref = useSquareCanvas(view, size, draw);
  const caption = view.kind === 'frozenlake' ? lakeCaption(view, budget) : sokobanCaption(view, budget);
  const title = view.kind === 'frozenlake' ? 'FrozenLake' : 'Sokoban';
  return (
    <div className="grid-view">
      <canvas
        ref={ref}
        data-testid="grid-canvas"
        data-kind={view.kind}
        data-player={`${view.player.row},${view.player.col}`}
        style={{ width: size, height: size }}
        role="img"
        aria-label={`${title}. ${caption}`}
      />
      <p className="view-caption" data-testid="view-caption">
        {caption}
      </p>
    </div>
  );
}
