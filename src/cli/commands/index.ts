// The command table of `starpo`. Add one import and one entry per command.
import type { Command } from '../command.js';
import { benchModelCommand } from './bench-model.js';
import { benchMinigridCommand } from './bench-minigrid.js';
import { benchWebshopCommand } from './bench-webshop.js';
import { minigridReplayCommand } from './minigrid-replay.js';
import { webshopRewardCommand } from './webshop-reward.js';
import { webshopSearchCommand } from './webshop-search.js';

export const commands: readonly Command[] = [webshopRewardCommand, webshopSearchCommand, benchWebshopCommand, benchModelCommand, minigridReplayCommand, benchMinigridCommand];
