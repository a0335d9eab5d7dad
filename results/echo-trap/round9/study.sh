#!/usr/bin/env bash
# The study's remaining DoorKey arms (docs/echo-trap.md §4) at the chosen cell's budget on seeds
# 201–208, made like the arms next.sh ran: from the worktree pinned at the round's commit.
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
arm s-samples --algos starpo-s --filter oversample
arm s-steps --algos starpo-s --filter subsample
# The Bandit re-measurement (its own directory and pinned commit) before the last two arms.
bash "$OUT/../bandit-shared/run.sh"
arm grpo --algos starpo-grpo
arm c-no-filter --algos starpo-s --filter off
