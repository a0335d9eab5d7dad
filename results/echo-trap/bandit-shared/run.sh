#!/usr/bin/env bash
# The Bandit re-measurement under shared streams (docs/echo-trap.md, "The re-measurement"), from a
# worktree pinned at the commit in provenance.json; resumable (finished runs are skipped).
set -uo pipefail
OUT=$(cd "$(dirname "$0")" && pwd)
COMMIT=$(node -p 'require(process.argv[1]).commit' "$OUT/provenance.json")
WT=/work/wt-$COMMIT
SHAPE="--env bandit/Bandit --max-turns 1 --max-actions-per-turn 1 --max-actions 1 --history-turns 1 --context 256 --groups 8 --group-size 8 --iters 80 --lr 1e-3 --steps-per-iter 4 --temperature 1 --eval-every 10 --eval-episodes 32 --mi-every 10 --mi-samples 8 --checkpoint-every 0 --backend wasm"
SEEDS=201,202,203,204,205,206,207,208
cell() { # name, then flags on top of the shape (a flag given here replaces the shape's)
  local name=$1; shift
  local shape=$SHAPE
  [[ " $* " == *" --lr "* ]] && shape=${shape/--lr 1e-3/}
  (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $shape --out "$OUT/$name" --seeds $SEEDS "$@") > "$OUT/$name.log" 2>&1
  echo "$(date -u +%FT%TZ) $name done" >> "$OUT/progress.log"
}
cell frozen --algos starpo-ppo --lr 0
cell learners --algos starpo-grpo,starpo-s,starpo-drgrpo,starpo-ppo
