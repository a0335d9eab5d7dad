#!/usr/bin/env bash
# Session 10's compute queue, one sweep at a time, two jobs each: the FrozenLake round (stage 1,
# stage 2, confirmation), DoorKey's remaining study arms, then FrozenLake's study arms when the
# pre-registered rule (docs/echo-trap.md §3b) lets FrozenLake be the study's second environment.
# Resumable: every sweep skips its finished runs.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
FL=$HERE/round10-frozenlake
bash "$FL/run.sh"
bash "$HERE/round9/study.sh"
(cd /work/main && npx tsx src/cli/main.ts echo-trap-round --dir "$FL" --docs "" > /dev/null)
if node -e '
const r = require(process.argv[1]);
const stage1 = Object.entries(r).filter(([n]) => !/^(null-|confirm-|study-)/.test(n));
const rose = stage1.some(([, rs]) => rs.filter((x) => x.seed <= 2 && x.riseZ > 3).length >= 2);
const frozenRose = (r["null-frozen"] ?? []).some((x) => x.riseZ > 3);
process.exit(rose && !frozenRose ? 0 : 1);' "$FL/report.json"; then
  echo "$(date -u +%FT%TZ) FrozenLake qualifies as the second environment" >> "$FL/progress.log"
  bash "$FL/study.sh"
else
  echo "$(date -u +%FT%TZ) FrozenLake does not qualify as the second environment" >> "$FL/progress.log"
fi
echo "$(date -u +%FT%TZ) session queue done" >> "$HERE/round9/progress.log"
