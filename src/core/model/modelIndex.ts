// The base-model index (public/models/index.json): which pretrained checkpoints exist, for
// which environment and size, with the episode settings they were trained and measured with.
// Validated on load, so a hand-edited or stale index fails with a message, not later.
import { z } from 'zod';

export const baseModelEntrySchema = z.object({
  id: z.string().min(1),
  env: z.string().min(1),
  size: z.enum(['nano', 'micro', 'small']),
  manifest: z.string().min(1),
  blob: z.string().min(1),
  params: z.number().int().positive(),
  greedySuccess: z.number().min(0).max(1),
  sampledSuccess: z.number().min(0).max(1),
  /** Config fields the model was trained with (turns, actions, history, context…). */
  settings: z.record(z.string(), z.number()),
  pretrain: z.record(z.string(), z.union([z.number(), z.string()])),
});

export type BaseModelEntry = z.infer<typeof baseModelEntrySchema>;

/** Parses an index file's JSON; throws a message naming the bad entry and field. */
export function parseModelIndex(json: unknown): BaseModelEntry[] {
  const r = z.array(baseModelEntrySchema).safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(
      `models index: entry ${String(i?.path[0] ?? '?')} field ${i?.path.slice(1).join('.') || '?'}: ${i?.message}`,
    );
  }
  return r.data;
}

/** The entry for an env and size, or undefined. */
export function findBaseModel(
  index: readonly BaseModelEntry[],
  env: string,
  size: string,
): BaseModelEntry | undefined {
  return index.find((e) => e.env === env && e.size === size);
}
