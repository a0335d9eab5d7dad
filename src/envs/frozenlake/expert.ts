// The FrozenLake expert: finite-horizon value iteration over the true map and slip model.
// V_k(s) = the best probability of reaching the goal from s within k moves; a move in direction a
// goes to a with probability p (intended) and to each perpendicular direction with (1 − p)/2
// (gymnasium's slip model when p = 1/3). The expert picks the action maximising V over the moves
// left; ties go to the action with the shorter expected safe distance to the goal, then to RAGEN's
// order (Left, Down, Right, Up). With p = 1 this is a shortest safe path.
import { FROZEN, GOAL, HOLE, LAKE_ACTIONS, type LakeMap, moveFrom, safeDistances } from './map.js';

/** Where each action can take the player: [direction, probability] pairs. */
export function outcomes(action: number, pIntended: number): [number, number][] {
  if (pIntended >= 1) return [[action, 1]];
  const side = (1 - pIntended) / 2;
  return [
    [(action + 3) % 4, side],
    [action, pIntended],
    [(action + 1) % 4, side],
  ];
}

/** V_k for k = 0..horizon: values[k][cell], the best success probability within k moves. */
export function successValues(map: LakeMap, pIntended: number, horizon: number): Float64Array[] {
  const n = map.tiles.length;
  const values = [new Float64Array(n)];
  for (let k = 1; k <= horizon; k++) {
    const prev = values[k - 1] as Float64Array;
    const v = new Float64Array(n);
    for (let s = 0; s < n; s++) {
      if (map.tiles[s] !== FROZEN) continue;
      for (let a = 0; a < 4; a++) v[s] = Math.max(v[s] as number, actionValue(map, prev, s, a, pIntended));
    }
    values.push(v);
  }
  return values;
}

function landValue(map: LakeMap, prev: Float64Array, cell: number): number {
  const t = map.tiles[cell];
  return t === GOAL ? 1 : t === HOLE ? 0 : (prev[cell] as number);
}

function actionValue(map: LakeMap, prev: Float64Array, s: number, a: number, p: number): number {
  let q = 0;
  for (const [d, prob] of outcomes(a, p)) q += prob * landValue(map, prev, moveFrom(map.size, s, d));
  return q;
}

/** The expert's choice from `cell` with `movesLeft` moves, and a one-line reason. */
export function lakeExpert(
  map: LakeMap,
  cell: number,
  movesLeft: number,
  pIntended: number,
): { action: string; reason: string } {
  const horizon = Math.max(movesLeft, 1);
  const prev = successValues(map, pIntended, horizon - 1)[horizon - 1] as Float64Array;
  const dist = safeDistances(map);
  const far = map.tiles.length + 1;
  let best = 0;
  let bestQ = -1;
  let bestDist = Number.POSITIVE_INFINITY;
  for (let a = 0; a < 4; a++) {
    const q = actionValue(map, prev, cell, a, pIntended);
    let expDist = 0;
    for (const [d, prob] of outcomes(a, pIntended)) {
      const to = moveFrom(map.size, cell, d);
      const dd = dist[to] as number;
      expDist += prob * (map.tiles[to] === HOLE || dd < 0 ? far : dd);
    }
    if (q > bestQ + 1e-12 || (Math.abs(q - bestQ) <= 1e-12 && expDist < bestDist - 1e-12)) {
      best = a;
      bestQ = q;
      bestDist = expDist;
    }
  }
  const action = LAKE_ACTIONS[best] as string;
  const d = dist[cell] as number;
  const moves = `${movesLeft} move${movesLeft === 1 ? '' : 's'} left`;
  if (bestQ <= 0) return { action, reason: `the goal cannot be reached in the ${moves}, go ${action}` };
  if (pIntended >= 1) {
    return { action, reason: `the goal is ${d} step${d === 1 ? '' : 's'} away on a safe path, go ${action}` };
  }
  return {
    action,
    reason: `${action} gives the best chance to reach the goal (${bestQ.toFixed(2)}) with ${moves}`,
  };
}
