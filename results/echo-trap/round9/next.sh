#!/usr/bin/env bash
# Stage 2 and the confirmation (docs/echo-trap.md §3), run by run.sh after stage 1: the rule picks
# the cell with the most trapped runs (ties: the larger mean peak − last 10), judged by the
# detector on main (the pre-registered one); then seeds 3–6 of it, then seeds 201–208 of it and
# of the frozen control. Runs are made in the pinned worktree, like stage 1.
set -uo pipefail
OUT=$(cd "$(dirname "$0")" && pwd)
source "$OUT/cells.sh"
(cd /work/main && npx tsx src/cli/main.ts echo-trap-round --dir "$OUT" --docs "" > /dev/null)
BEST=$(node -e '
const r = require(process.argv[1]);
const cells = Object.entries(r).filter(([n]) => !n.startsWith("null-") && !n.startsWith("confirm-"));
const score = ([n, rs]) => [rs.filter((x) => x.trapped).length, rs.reduce((a, x) => a + x.peak - x.final, 0) / rs.length];
cells.sort((a, b) => { const [ka, da] = score(a), [kb, db] = score(b); return kb - ka || db - da; });
console.log(cells[0][0]);' "$OUT/report.json")
echo "$(date -u +%FT%TZ) stage 1 best cell: $BEST" >> "$OUT/progress.log"
echo "$BEST" > "$OUT/chosen-cell.txt"
read -r ALGO FLAGS <<< "${CELLS[$BEST]}"
sweep() { (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $SHAPE "$@"); }
sweep --out "$OUT/$BEST" --algos "$ALGO" --seeds 1,2,3,4,5,6 $FLAGS > "$OUT/$BEST-stage2.log" 2>&1
echo "$(date -u +%FT%TZ) stage 2 done" >> "$OUT/progress.log"
sweep --out "$OUT/confirm-vanilla" --algos "$ALGO" --seeds 201,202,203,204,205,206,207,208 $FLAGS > "$OUT/confirm-vanilla.log" 2>&1
echo "$(date -u +%FT%TZ) confirm-vanilla done" >> "$OUT/progress.log"
sweep --out "$OUT/confirm-frozen" --algos starpo-ppo --seeds 201,202,203,204,205,206,207,208 --lr 0 > "$OUT/confirm-frozen.log" 2>&1
echo "$(date -u +%FT%TZ) confirm-frozen done" >> "$OUT/progress.log"
# The study's arms (docs/echo-trap.md §4) at the chosen cell's budget on seeds 201–208 (the
# confirmation's vanilla and frozen runs are its vanilla and frozen arms), as far as the session's
# compute reaches; resumable like every cell.
SEEDS=201,202,203,204,205,206,207,208
arm() { # name, then flags on top of the cell's (a flag given here replaces the shape's)
  local name=$1; shift
  local shape=$SHAPE
  [[ " $* " == *" --steps-per-iter "* ]] && shape=${shape/--steps-per-iter 4/}
  (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $shape --out "$OUT/study-$name" --seeds $SEEDS $FLAGS "$@") > "$OUT/study-$name.log" 2>&1
  echo "$(date -u +%FT%TZ) study-$name done" >> "$OUT/progress.log"
}
arm s-paper --algos starpo-s --filter subsample --steps-per-iter 0 --epochs 1 --minibatch 32
arm c-random-keep --algos starpo-ppo --filter subsample --filter-order random --filter-ratio 0.25 --steps-per-iter 0 --epochs 1 --minibatch 32
arm s-samples --algos starpo-s --filter oversample
arm grpo --algos starpo-grpo
arm s-steps --algos starpo-s --filter subsample
arm c-no-filter --algos starpo-s --filter off
