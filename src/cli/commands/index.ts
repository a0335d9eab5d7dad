// The command table of `starpo`. Add one import and one entry per command.
import type { Command } from '../command.js';
import { benchCommand } from './bench.js';
import { benchMinigridCommand } from './bench-minigrid.js';
import { benchModelCommand } from './bench-model.js';
import { benchThreadsCommand } from './bench-threads.js';
import { benchWebshopCommand } from './bench-webshop.js';
import { calibrateCommand } from './calibrate.js';
import { echoTrapRoundCommand } from './echo-trap-round.js';
import { exportRagenCommand } from './export-ragen.js';
import { minigridReplayCommand } from './minigrid-replay.js';
import { pretrainCommand } from './pretrain.js';
import { ragenMetricsCommand } from './ragen-metrics.js';
import { resultsCommand } from './results.js';
import { roundCommand } from './round.js';
import { soakCommand } from './soak.js';
import { sweepCommand } from './sweep.js';
import { sweepBundleCommand } from './sweep-bundle.js';
import { trainCommand } from './train.js';
import { webshopRewardCommand } from './webshop-reward.js';
import { webshopSearchCommand } from './webshop-search.js';

export const commands: readonly Command[] = [
  trainCommand,
  sweepCommand,
  sweepBundleCommand,
  calibrateCommand,
  echoTrapRoundCommand,
  roundCommand,
  resultsCommand,
  pretrainCommand,
  exportRagenCommand,
  ragenMetricsCommand,
  benchCommand,
  benchModelCommand,
  benchThreadsCommand,
  benchMinigridCommand,
  benchWebshopCommand,
  minigridReplayCommand,
  webshopRewardCommand,
  webshopSearchCommand,
  soakCommand,
];
