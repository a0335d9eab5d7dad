// The command table of `starpo`. Add one import and one entry per command.
import type { Command } from '../command.js';

export const commands: readonly Command[] = [];
