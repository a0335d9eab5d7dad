#!/usr/bin/env bash
# The FrozenLake round's pre-registered queue (docs/echo-trap.md §3b), run from a worktree pinned
# at the commit in provenance.json; every cell is a resumable `sweep` (finished runs are skipped).
set -uo pipefail
OUT=$(cd "$(dirname "$0")" && pwd)
source "$OUT/cells.sh"
cell() { # name algo seeds flags...
  local name=$1 algo=$2 seeds=$3; shift 3
  [ -f "$OUT/$name/.done" ] && return 0
  (cd "$WT" && npx tsx src/cli/main.ts sweep --out "$OUT/$name" --algos "$algo" --seeds "$seeds" --jobs 2 $SHAPE "$@") > "$OUT/$name.log" 2>&1 && touch "$OUT/$name/.done"
  echo "$(date -u +%FT%TZ) $name done" >> "$OUT/progress.log"
}
cell null-frozen starpo-ppo 8 --lr 0
for name in ppo-1e-3-w0.2 ppo-2e-3-w0.3 grpo-1e-3-w0.2 ppo-5e-4-w0.2; do
  read -r ALGO FLAGS <<< "${CELLS[$name]}"
  cell "$name" "$ALGO" 1,2 $FLAGS
done
bash "$OUT/next.sh"
echo "$(date -u +%FT%TZ) queue done" >> "$OUT/progress.log"
