#!/usr/bin/env bash
# Stage 2, the confirmation and the study's second environment (docs/echo-trap.md §3b), after
# stage 1: the same rule as DoorKey's round picks the cell (most trapped runs; ties: the larger
# mean peak − last 10), then seeds 3–6 of it, then seeds 201–208 of it and of the frozen control,
# then the s-paper and s-samples arms on 201–208 when vanilla learned beyond its frozen control.
set -uo pipefail
OUT=$(cd "$(dirname "$0")" && pwd)
source "$OUT/cells.sh"
(cd /work/main && npx tsx src/cli/main.ts echo-trap-round --dir "$OUT" --docs "" > /dev/null)
BEST=$(node -e '
const r = require(process.argv[1]);
const cells = Object.entries(r).filter(([n]) => !n.startsWith("null-") && !n.startsWith("confirm-") && !n.startsWith("study-"));
const score = ([n, rs]) => [rs.filter((x) => x.trapped).length, rs.reduce((a, x) => a + x.peak - x.final, 0) / rs.length];
cells.sort((a, b) => { const [ka, da] = score(a), [kb, db] = score(b); return kb - ka || db - da; });
console.log(cells[0][0]);' "$OUT/report.json")
echo "$(date -u +%FT%TZ) stage 1 best cell: $BEST" >> "$OUT/progress.log"
echo "$BEST" > "$OUT/chosen-cell.txt"
read -r ALGO FLAGS <<< "${CELLS[$BEST]}"
sweep() { (cd "$WT" && npx tsx src/cli/main.ts sweep --jobs 2 $SHAPE "$@"); }
sweep --out "$OUT/$BEST" --algos "$ALGO" --seeds 1,2,3,4,5,6 $FLAGS > "$OUT/$BEST-stage2.log" 2>&1
echo "$(date -u +%FT%TZ) stage 2 done" >> "$OUT/progress.log"
SEEDS=201,202,203,204,205,206,207,208
sweep --out "$OUT/confirm-vanilla" --algos "$ALGO" --seeds $SEEDS $FLAGS > "$OUT/confirm-vanilla.log" 2>&1
echo "$(date -u +%FT%TZ) confirm-vanilla done" >> "$OUT/progress.log"
sweep --out "$OUT/confirm-frozen" --algos starpo-ppo --seeds $SEEDS --lr 0 > "$OUT/confirm-frozen.log" 2>&1
echo "$(date -u +%FT%TZ) confirm-frozen done" >> "$OUT/progress.log"
