#!/usr/bin/env bash
# The study's second environment (docs/echo-trap.md §3b): s-paper and s-samples at the chosen
# cell's budget on seeds 201–208, beside the confirmation's vanilla and frozen runs. Run only when
# a stage-1 cell learned beyond the frozen control (the rule in §3b).
set -uo pipefail
OUT=$(cd "$(dirname "$0")" && pwd)
source "$OUT/cells.sh"
read -r ALGO FLAGS <<< "${CELLS[$(cat "$OUT/chosen-cell.txt")]}"
SEEDS=201,202,203,204,205,206,207,208
arm() { # name, then flags on top of the cell's (a flag given here replaces the shape's)
  local name=$1; shift
  local shape=$SHAPE
  [[ " $* " == *" --steps-per-iter "* ]] && shape=${shape/--steps-per-iter 4/}
  (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $shape --out "$OUT/study-$name" --seeds $SEEDS $FLAGS "$@") > "$OUT/study-$name.log" 2>&1
  echo "$(date -u +%FT%TZ) study-$name done" >> "$OUT/progress.log"
}
arm s-paper --algos starpo-s --filter subsample --steps-per-iter 0 --epochs 1 --minibatch 32
arm s-samples --algos starpo-s --filter oversample
