# The FrozenLake round's shape and stage-1 cells (docs/echo-trap.md §3b): algorithm, then flags.
# The shape is DoorKey's round (8 × 4, 60 iterations, T 0.7, 4 steps) on FrozenLake-4x4.
COMMIT=$(node -p 'require(process.argv[1]).commit' "$(dirname "${BASH_SOURCE[0]}")/provenance.json")
WT=/work/wt-$COMMIT
SHAPE="--env frozenlake/FrozenLake-4x4 --groups 8 --group-size 4 --iters 60 --temperature 0.7 --steps-per-iter 4 --eval-every 10 --eval-episodes 32 --mi-every 10 --mi-samples 8 --checkpoint-every 0 --backend wasm"
declare -A CELLS=(
  [ppo-5e-4-w0.2]="starpo-ppo --lr 5e-4 --lr-warmup 0.2"
  [ppo-1e-3-w0.2]="starpo-ppo --lr 1e-3 --lr-warmup 0.2"
  [ppo-2e-3-w0.3]="starpo-ppo --lr 2e-3 --lr-warmup 0.3"
  [grpo-1e-3-w0.2]="starpo-grpo --lr 1e-3 --lr-warmup 0.2"
)
