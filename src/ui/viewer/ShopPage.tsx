// A WebShop-lite page drawn from the env's view(): the search box, results (the ones the agent
// reads marked), the item with its options (selected ones highlighted), and the score once
// bought — WebShop's own page layout, in miniature. The actions-left counter reads against the
// budget that ends the episode: the run's action budget, or the shop's own limit when tighter.
import type { WebShopView } from '../../envs/webshop/env.js';

/** Actions left of the budget that really ends the episode (the run's, capped by the shop's own). */
export function shopBudget(view: WebShopView, budget?: number): { left: number; of: number } {
  const of = budget !== undefined && budget > 0 ? Math.min(budget, view.budget) : view.budget;
  const used = view.budget - view.actionsLeft;
  return { left: Math.max(0, of - used), of };
}

export function ShopPage({ view, budget }: { view: WebShopView; budget?: number | undefined }) {
  const left = shopBudget(view, budget);
  return (
    <div className="shop-page" data-testid="shop-page" data-page={view.page}>
      <div className="shop-bar">
        <span className="shop-logo">WebShop</span>
        <span className="shop-query">{view.query ? `search: ${view.query}` : 'no search yet'}</span>
        <span className="shop-budget" data-testid="shop-budget">
          {left.left} / {left.of} actions left
        </span>
      </div>
      <p className="shop-instruction">{view.instruction}</p>
      {view.page === 'search' ? <p className="shop-note">Search page: the agent types search[…].</p> : null}
      {view.results ? (
        <p className="shop-meta">
          Page {view.results.page} · {view.results.total} results
          {view.results.shown < view.results.products.length
            ? ` · the agent reads the first ${view.results.shown} (the rest greyed)`
            : ''}
        </p>
      ) : null}
      {view.results ? (
        <ol className="shop-results" data-testid="shop-results" start={(view.results.page - 1) * 10 + 1}>
          {view.results.products.map((p, i) => (
            <li key={p.asin} className={i < (view.results?.shown ?? 0) ? 'shown' : 'hidden-to-agent'}>
              <code>{p.asin}</code> {p.title} <b>{p.priceTag}</b>
              {view.visited.includes(p.asin.toLowerCase()) || view.visited.includes(p.asin)
                ? ' · visited'
                : ''}
            </li>
          ))}
        </ol>
      ) : null}
      {view.item && view.page !== 'results' ? (
        <div className="shop-item">
          <h4>{view.item.title}</h4>
          <p>
            Price: <b>{view.item.priceTag}</b> · Rating: {view.item.rating}
          </p>
          {view.item.options.map((o) => (
            <p key={o.name} className="shop-options">
              {o.name}:{' '}
              {o.values.map((v) => (
                <span key={v} className={view.selected[o.name] === v ? 'opt selected' : 'opt'}>
                  {v}
                </span>
              ))}
            </p>
          ))}
          {view.page === 'description' ? <p className="shop-text">{view.item.description}</p> : null}
          {view.page === 'features' ? (
            <ul className="shop-text">
              {view.item.bulletPoints.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {view.reward ? (
        <p className="shop-reward" data-testid="shop-reward">
          Bought. Score {view.reward.reward.toFixed(2)}: WebShop's reward, the product-type match (
          {view.reward.rType.toFixed(2)}) times the share of what the goal asked for that the purchase has —{' '}
          {view.reward.numAttr} goal attribute{view.reward.numAttr === 1 ? '' : 's'} matched,{' '}
          {view.reward.numOpt} goal option{view.reward.numOpt === 1 ? '' : 's'} matched, and the price term{' '}
          {view.reward.rPrice.toFixed(2)} (1 when within budget) — out of attributes + options + 1.
        </p>
      ) : null}
    </div>
  );
}
