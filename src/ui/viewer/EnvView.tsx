// Draws any env view(): MiniGrid on a canvas, WebShop-lite as a page, anything else as JSON.
import type { MiniGridView } from '../../envs/minigrid/viewjson.js';
import type { WebShopView } from '../../envs/webshop/env.js';
import { MiniGridCanvas } from './MiniGridCanvas.js';
import { ShopPage } from './ShopPage.js';

export function EnvView({ view }: { view: unknown }) {
  const v = view as { kind?: string; page?: string } | null;
  if (v?.kind === 'minigrid') return <MiniGridCanvas view={view as MiniGridView} />;
  if (v && typeof v.page === 'string') return <ShopPage view={view as WebShopView} />;
  return <pre className="view-json">{JSON.stringify(view, null, 1)}</pre>;
}
