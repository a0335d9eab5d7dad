#!/usr/bin/env bash
# The round's pre-registered queue (docs/echo-trap.md §2–3), run from a worktree pinned at the
# commit below; every cell is a resumable `sweep` (finished runs are skipped on a rerun).
# Stage 2 and the confirmation are appended by `next.sh` once the rule picks the cell.
set -uo pipefail
COMMIT=380142d
WT=/work/wt-$COMMIT
OUT=$(cd "$(dirname "$0")" && pwd)
SHAPE="--env minigrid/DoorKey-5x5 --groups 8 --group-size 4 --iters 60 --temperature 0.7 --steps-per-iter 4 --eval-every 10 --eval-episodes 32 --mi-every 10 --mi-samples 8 --checkpoint-every 0 --backend wasm"
cell() { # name algo seeds flags...
  local name=$1 algo=$2 seeds=$3; shift 3
  [ -f "$OUT/$name/.done" ] && return 0
  (cd "$WT" && npx tsx src/cli/main.ts sweep --out "$OUT/$name" --algos "$algo" --seeds "$seeds" --jobs 2 $SHAPE "$@") > "$OUT/$name.log" 2>&1 && touch "$OUT/$name/.done"
  echo "$(date -u +%FT%TZ) $name done" >> "$OUT/progress.log"
}
cell null-frozen starpo-ppo 16 --lr 0
cell null-hold-1e-4 starpo-ppo 8 --lr 1e-4
cell ppo-1e-3-w0.2 starpo-ppo 1,2 --lr 1e-3 --lr-warmup 0.2
cell ppo-7e-4-w0.2 starpo-ppo 1,2 --lr 7e-4 --lr-warmup 0.2
cell grpo-7e-4-w0.2 starpo-grpo 1,2 --lr 7e-4 --lr-warmup 0.2
cell grpo-1e-3-w0.2 starpo-grpo 1,2 --lr 1e-3 --lr-warmup 0.2
cell ppo-2e-3-w0.3 starpo-ppo 1,2 --lr 2e-3 --lr-warmup 0.3
[ -f "$OUT/next.sh" ] && bash "$OUT/next.sh"
echo "$(date -u +%FT%TZ) queue done" >> "$OUT/progress.log"
