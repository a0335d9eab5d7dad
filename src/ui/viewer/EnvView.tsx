// Draws any env view(), chosen by its `kind` (a table, one drawer per env family): MiniGrid and
// the FrozenLake/Sokoban grids on a canvas, the bandit as its two arms, WebShop-lite (whose
// view has a `page` instead) as a page; anything unknown as JSON. `budget` is the run's action
// budget, so step counts read against what really ends the episode.
import type { ReactNode } from 'react';
import type { BanditView } from '../../envs/bandit/env.js';
import type { FrozenLakeView } from '../../envs/frozenlake/env.js';
import type { MiniGridView } from '../../envs/minigrid/viewjson.js';
import type { SokobanView } from '../../envs/sokoban/env.js';
import type { WebShopView } from '../../envs/webshop/env.js';
import { BanditCard } from './BanditCard.js';
import { GridCanvas } from './GridCanvas.js';
import { MiniGridCanvas } from './MiniGridCanvas.js';
import { ShopPage } from './ShopPage.js';

/** `size`: the picture's side in CSS pixels (the drawer's own default when absent). */
type Drawer = (view: unknown, budget: number | undefined, size: number | undefined) => ReactNode;

const sized = (size: number | undefined) => (size === undefined ? {} : { size });

const DRAWERS: Record<string, Drawer> = {
  minigrid: (v, budget, size) => <MiniGridCanvas view={v as MiniGridView} budget={budget} {...sized(size)} />,
  frozenlake: (v, budget, size) => <GridCanvas view={v as FrozenLakeView} budget={budget} {...sized(size)} />,
  sokoban: (v, budget, size) => <GridCanvas view={v as SokobanView} budget={budget} {...sized(size)} />,
  bandit: (v) => <BanditCard view={v as BanditView} />,
  webshop: (v, budget) => <ShopPage view={v as WebShopView} budget={budget} />,
};

/** The drawer key of a view: its `kind`, or "webshop" for a shop page. */
export function viewKind(view: unknown): string | null {
  const v = view as { kind?: unknown; page?: unknown } | null;
  if (v && typeof v.kind === 'string') return v.kind;
  if (v && typeof v.page === 'string') return 'webshop';
  return null;
}

export function EnvView({
  view,
  budget,
  size,
}: {
  view: unknown;
  budget?: number | undefined;
  size?: number | undefined;
}) {
  const kind = viewKind(view);
  const drawer = kind ? DRAWERS[kind] : undefined;
  if (drawer) return <>{drawer(view, budget, size)}</>;
  return <pre className="view-json">{JSON.stringify(view, null, 1)}</pre>;
}
