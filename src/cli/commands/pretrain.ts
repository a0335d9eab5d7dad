// `npm run pretrain -- --env <id> --size <size>`: makes a base model by SFT on the scripted
// expert's demonstrations with a share of noisy turns, measures its greedy and
// sampled success on held-out start states, and writes a checkpoint plus an entry in the
// models index (public/models/index.json by default). Seeded and reproducible. With
// --eval-every the held-out success is also measured during training and the checkpoint written
// at each check, so a long run that stops can go on with --init <out>/<name>.json --steps N.
// This file runs the steps in order; each lives in src/cli/pretrain/: the options and plan
// (options.ts), the corpus and tokenizer (corpus.ts), the SFT run and checkpoint (train.ts), the
// models index (modelsIndex.ts) and --remeasure (remeasure.ts).
import { disposeModel } from '../../core/model/params.js';
import { Rng } from '../../core/rng.js';
import { evalPool } from '../../envs/pools.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import type { Command } from '../command.js';
import { parseFlags } from '../flags.js';
import { corpusAndTokenizer, sftData } from '../pretrain/corpus.js';
import { indexEntry, writeIndexEntry } from '../pretrain/modelsIndex.js';
import { PRETRAIN_FLAGS, PRETRAIN_USAGE, readPlan } from '../pretrain/options.js';
import { remeasure } from '../pretrain/remeasure.js';
import { createModel, measure, type PretrainRun, train, writeModel } from '../pretrain/train.js';

export const pretrainCommand: Command = {
  name: 'pretrain',
  summary: 'make a base model by SFT on noisy expert demonstrations',
  usage: PRETRAIN_USAGE,
  async run(args, io) {
    const plan = readPlan(parseFlags(args, PRETRAIN_FLAGS));
    // Node's 'auto' is WASM, as for train.
    const backend = await setupNodeBackend(plan.backend === 'auto' ? 'wasm' : plan.backend);
    const log = (s: string) => io.stderr.write(`${s}\n`);
    if (plan.remeasure) return remeasure(plan.env, plan.out, plan.stem, plan.options.evalEpisodes, log, io);
    log(`pretrain ${plan.env} ${plan.size} on ${backend.backend}`);
    const data = sftData(plan, await corpusAndTokenizer(plan), log);
    const rng = new Rng(plan.seed);
    const policy = await createModel(plan, data, rng);
    const run: PretrainRun = { plan, data, policy, pool: evalPool(plan.env), log };
    const trained = await train(run, rng);
    const result = await measure(run, plan.options.evalEpisodes);
    await writeModel(run, plan.options.steps, trained.seconds, result);
    const entry = indexEntry(run, trained, result, backend.backend);
    await writeIndexEntry(plan.out, entry);
    io.stdout.write(`${JSON.stringify(entry)}\n`);
    disposeModel(policy);
    return 0;
  },
};
