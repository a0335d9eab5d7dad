# The round's shape and stage-1 cells (docs/echo-trap.md §2–3): algorithm, then flags.
COMMIT=380142d
WT=/work/wt-$COMMIT
SHAPE="--env minigrid/DoorKey-5x5 --groups 8 --group-size 4 --iters 60 --temperature 0.7 --steps-per-iter 4 --eval-every 10 --eval-episodes 32 --mi-every 10 --mi-samples 8 --checkpoint-every 0 --backend wasm"
declare -A CELLS=(
  [ppo-1e-3-w0.2]="starpo-ppo --lr 1e-3 --lr-warmup 0.2"
  [ppo-7e-4-w0.2]="starpo-ppo --lr 7e-4 --lr-warmup 0.2"
  [grpo-7e-4-w0.2]="starpo-grpo --lr 7e-4 --lr-warmup 0.2"
  [grpo-1e-3-w0.2]="starpo-grpo --lr 1e-3 --lr-warmup 0.2"
  [ppo-2e-3-w0.3]="starpo-ppo --lr 2e-3 --lr-warmup 0.3"
)
