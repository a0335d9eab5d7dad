// A MiniGrid state on a canvas, with a text line for what the picture shows (for screen
// readers and tests): position, direction, what the agent carries, and the step count against
// the run's action budget when that ends the episode before MiniGrid's own step limit.
import type { MiniGridView } from '../../envs/minigrid/viewjson.js';
import { drawMiniGrid } from './drawMiniGrid.js';
import { stepWords } from './envWords.js';
import { useSquareCanvas } from './useSquareCanvas.js';

const DIRS = ['right', 'down', 'left', 'up'];

export function MiniGridCanvas({
  view,
  budget,
  size = 280,
}: {
  view: MiniGridView;
  budget?: number | undefined;
  size?: number;
}) {
  const ref = useSquareCanvas(view, size, drawMiniGrid);
  const caption = `Agent at (${view.agent.x}, ${view.agent.y}) facing ${DIRS[view.agent.dir] ?? '?'}${
    view.carrying ? `, carrying a ${view.carrying.color} ${view.carrying.type}` : ''
  }; ${stepWords(view.stepCount, view.maxSteps, budget)}${view.done ? ', episode over' : ''}.`;
  return (
    <div className="minigrid-view">
      <canvas
        ref={ref}
        data-testid="minigrid-canvas"
        data-agent={`${view.agent.x},${view.agent.y},${view.agent.dir}`}
        style={{ width: size, height: size }}
        role="img"
        aria-label={`${view.mission}. ${caption}`}
      />
      <p className="view-caption" data-testid="view-caption">
        {caption}
      </p>
    </div>
  );
}
