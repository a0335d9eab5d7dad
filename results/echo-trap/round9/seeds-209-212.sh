#!/usr/bin/env bash
# The study's last four seeds (docs/echo-trap.md §4: study seeds 201–212), every arm, made like
# seeds 201–208 (next.sh, study.sh): from the worktree pinned at the round's commit, the chosen
# cell's budget, the same flags. Resumable: every sweep skips its finished runs. Slowest arm last.
set -uo pipefail
OUT=$(cd "$(dirname "$0")" && pwd)
source "$OUT/cells.sh"
read -r ALGO FLAGS <<< "${CELLS[$(cat "$OUT/chosen-cell.txt")]}"
SEEDS=209,210,211,212
sweep() { (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $SHAPE "$@"); }
sweep --out "$OUT/study-vanilla" --algos "$ALGO" --seeds $SEEDS $FLAGS > "$OUT/study-vanilla.log" 2>&1
echo "$(date -u +%FT%TZ) vanilla 209-212 done" >> "$OUT/progress.log"
sweep --out "$OUT/study-frozen" --algos starpo-ppo --seeds $SEEDS --lr 0 > "$OUT/study-frozen.log" 2>&1
echo "$(date -u +%FT%TZ) frozen 209-212 done" >> "$OUT/progress.log"
arm() { # name, then flags on top of the cell's (a flag given here replaces the shape's)
  local name=$1; shift
  local shape=$SHAPE
  [[ " $* " == *" --steps-per-iter "* ]] && shape=${shape/--steps-per-iter 4/}
  (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $shape --out "$OUT/study-$name" --seeds $SEEDS $FLAGS "$@") > "$OUT/study-$name-209.log" 2>&1
  echo "$(date -u +%FT%TZ) study-$name 209-212 done" >> "$OUT/progress.log"
}
arm s-paper --algos starpo-s --filter subsample --steps-per-iter 0 --epochs 1 --minibatch 32
arm c-random-keep --algos starpo-ppo --filter subsample --filter-order random --filter-ratio 0.25 --steps-per-iter 0 --epochs 1 --minibatch 32
arm s-steps --algos starpo-s --filter subsample
arm grpo --algos starpo-grpo
arm c-no-filter --algos starpo-s --filter off
arm s-samples --algos starpo-s --filter oversample
