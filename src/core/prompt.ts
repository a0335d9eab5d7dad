// Builds the multi-turn token sequence of one trajectory, RAGEN's layout in words
// (RAGEN-AI/RAGEN's agent_proxy, es_manager and ctx_manager): the instruction, then per turn the state
// and the actions left, the agent's response (forced to begin with `<think>`), and the reward —
// all ONE token sequence, with a loss mask on the agent's tokens.
//
// Layout (as decoded; `<…>` are single special tokens):
//   <bos>{instruction}\n
//   <cut>\n                                   only when older turns were dropped
//   <turn>turn {i} <state>state:\n{observation}\nactions left: {k}\n
//   <think>{response tokens, as sampled, up to </answer>}
//   <reward>reward: {r}\n                     once the turn's reward is known
// A turn without a response ends the sequence with the forced `<think>`: a generation prompt.
// History keeps the last `historyTurns` turns (the current one included; ppo-turn keeps 1); the
// hard `maxTokens` limit then drops more old turns, then shortens the current observation and
// finally the instruction, each cut marked with `<cut>` — never a silent overflow.
import type { Tokenizer } from './tokenizer.js';

/**
 * A turn's state as the agent reads it, in words (the sequence below spells the same text with its
 * special tokens): "turn {i} state:\n{observation}\nactions left: {k}".
 */
export function turnText(index: number, observation: string, actionsLeft: number): string {
  return `turn ${index} state:\n${observation}\nactions left: ${actionsLeft}`;
}

/** One turn of a trajectory, as the rollout knows it. */
export interface PromptTurn {
  /** The environment's observation at the start of the turn. */
  observation: string;
  /** Actions the agent may still take, shown as "actions left: k". */
  actionsLeft: number;
  /**
   * The agent's response after the forced `<think>`: the sampled ids (preferred: they are the
   * exact tokens the policy produced) or text (encoded here; a leading `<think>` is skipped).
   * Absent on the turn being generated.
   */
  response?: { ids: readonly number[] } | { text: string };
  /** The turn's reward (format penalty included); shown after the response when present. */
  reward?: number;
}

export interface PromptOptions {
  /** Turns kept, the current one included (>= 1). */
  historyTurns: number;
  /** Hard limit on the sequence length, normally the model context. */
  maxTokens: number;
  /** Tokens left free for generation (the rollout passes its max tokens per turn); default 0. */
  reserveTokens?: number;
  /** Also put env tokens (everything after the instruction) in the loss mask, as the paper's runs did. */
  lossOnEnvTokens?: boolean;
}

/** Where a kept turn sits in the sequence (token indices, end exclusive). */
export interface TurnSpan {
  /** 1-based turn number in the trajectory. */
  turn: number;
  start: number;
  /** Index of the first agent token (right after the forced `<think>`). */
  responseStart: number;
  responseEnd: number;
  end: number;
}

export interface BuiltSequence {
  ids: number[];
  /** 1 where the token is a training target (the agent's tokens; env tokens too if asked). */
  lossMask: Uint8Array;
  /** 1 on the agent's sampled tokens only, whatever `lossOnEnvTokens` says. */
  agentMask: Uint8Array;
  turns: TurnSpan[];
  /** Older turns left out (by `historyTurns` or by the hard limit). */
  droppedTurns: number;
  /** The current observation or the instruction was shortened to fit. */
  truncated: boolean;
  /** The sequence ends with the forced `<think>` of a turn still to be generated. */
  generationPrompt: boolean;
}

/** Texts holding every word the layout writes, for building vocabularies. */
export function promptTemplateTexts(): string[] {
  return ['turn 1 state:\nactions left: 9\nreward: -0.5', 'turn 10 state: reward: 0.25 actions left: 0'];
}

/** Reward as written in the prompt: rounded to 2 decimals, no exponent, no "-0". */
export function formatReward(r: number): string {
  if (!Number.isFinite(r)) throw new Error(`formatReward: reward must be finite, got ${r}`);
  const x = Math.round(r * 100) / 100;
  return Object.is(x, -0) ? '0' : String(x);
}

interface Segment {
  ids: number[];
  agent: boolean;
  env: boolean;
}

function turnSegments(tok: Tokenizer, turn: PromptTurn, index: number, observation: number[]): Segment[] {
  const s = tok.special;
  const nl = tok.encode('\n');
  const head = [s['<turn>'], ...tok.encode(`turn ${index}`), s['<state>'], ...tok.encode('state:'), ...nl];
  const tail = [...nl, ...tok.encode(`actions left: ${turn.actionsLeft}`), ...nl, s['<think>']];
  const segs: Segment[] = [{ ids: [...head, ...observation, ...tail], agent: false, env: true }];
  if (turn.response) {
    let ids = 'ids' in turn.response ? [...turn.response.ids] : tok.encode(turn.response.text);
    if (!('ids' in turn.response) && ids[0] === s['<think>']) ids = ids.slice(1);
    segs.push({ ids, agent: true, env: false });
    if (turn.reward !== undefined) {
      const reward = [s['<reward>'], ...tok.encode(`reward: ${formatReward(turn.reward)}`), ...nl];
      segs.push({ ids: reward, agent: false, env: true });
    }
  }
  return segs;
}

const length = (segs: Segment[]): number => segs.reduce((n, g) => n + g.ids.length, 0);

/**
 * The sequence's segments: the header, a `<cut>` line when turns before `first` were dropped, and
 * the blocks of turns `first` onward.
 */
function assemble(
  tok: Tokenizer,
  instr: readonly number[],
  first: number,
  blocks: readonly Segment[][],
): Segment[] {
  const s = tok.special;
  const segs: Segment[] = [{ ids: [s['<bos>'], ...instr, ...tok.encode('\n')], agent: false, env: false }];
  if (first > 0) segs.push({ ids: [s['<cut>'], ...tok.encode('\n')], agent: false, env: true });
  for (let i = first; i < blocks.length; i++) segs.push(...(blocks[i] as Segment[]));
  return segs;
}

/** The segments that fit, the turns dropped before them, and whether anything was shortened. */
interface Fitted {
  segs: Segment[];
  first: number;
  truncated: boolean;
}

/**
 * Keeps the last `historyTurns` turns, drops older ones while the sequence is over `maxTokens −
 * reserveTokens`, then shortens the current observation and the instruction, each cut marked.
 */
function fitTurns(
  tok: Tokenizer,
  instruction: string,
  turns: readonly PromptTurn[],
  options: PromptOptions,
): Fitted {
  const { historyTurns, maxTokens } = options;
  const reserve = options.reserveTokens ?? 0;
  const budget = maxTokens - reserve;
  const s = tok.special;
  let instr = tok.encode(instruction);
  const observations = turns.map((t) => tok.encode(t.observation));
  const blocks = turns.map((t, i) => turnSegments(tok, t, i + 1, observations[i] as number[]));
  let first = Math.max(0, turns.length - historyTurns);
  let segs = assemble(tok, instr, first, blocks);
  while (length(segs) > budget && first < turns.length - 1) {
    first++;
    segs = assemble(tok, instr, first, blocks);
  }
  if (length(segs) <= budget) return { segs, first, truncated: false };
  // Shorten the current observation, then the instruction, each ending in a visible <cut>.
  const last = turns.length - 1;
  const over = length(segs) - budget;
  const obs = observations[last] as number[];
  const keepObs = Math.max(0, obs.length - over - 1);
  blocks[last] = turnSegments(tok, turns[last] as PromptTurn, last + 1, [
    ...obs.slice(0, keepObs),
    s['<cut>'],
  ]);
  segs = assemble(tok, instr, first, blocks);
  if (length(segs) > budget) {
    instr = [...instr.slice(0, Math.max(0, instr.length - (length(segs) - budget) - 1)), s['<cut>']];
    segs = assemble(tok, instr, first, blocks);
  }
  if (length(segs) > budget) {
    throw new Error(
      `buildSequence: maxTokens ${maxTokens} (minus ${reserve} reserved) cannot hold one turn's scaffolding (${length(segs)} tokens)`,
    );
  }
  return { segs, first, truncated: true };
}

/** The segments laid end to end: ids, loss and agent masks, and each kept turn's span (turn `first + 1` on). */
function flatten(
  tok: Tokenizer,
  segs: readonly Segment[],
  first: number,
  lossOnEnvTokens: boolean,
): Pick<BuiltSequence, 'ids' | 'lossMask' | 'agentMask' | 'turns'> {
  const s = tok.special;
  const ids: number[] = [];
  const lossMask: number[] = [];
  const agentMask: number[] = [];
  const spans: TurnSpan[] = [];
  let turnNo = first;
  for (const seg of segs) {
    if (seg.env && seg.ids[0] === s['<turn>']) {
      spans.push({ turn: turnNo + 1, start: ids.length, responseStart: 0, responseEnd: 0, end: 0 });
      turnNo++;
    }
    const span = spans[spans.length - 1];
    for (const id of seg.ids) {
      ids.push(id);
      agentMask.push(seg.agent ? 1 : 0);
      lossMask.push(seg.agent || (lossOnEnvTokens && seg.env) ? 1 : 0);
    }
    if (span) {
      if (seg.env && seg.ids[0] === s['<turn>']) span.responseStart = span.responseEnd = ids.length;
      if (seg.agent) span.responseEnd = ids.length;
      span.end = ids.length;
    }
  }
  return { ids, lossMask: Uint8Array.from(lossMask), agentMask: Uint8Array.from(agentMask), turns: spans };
}

/**
 * Builds the token sequence and masks of a trajectory's first `turns.length` turns. Only the
 * last turn may lack a response (then the sequence is a generation prompt). Throws when even the
 * current turn's scaffolding cannot fit `maxTokens − reserveTokens`.
 */
export function buildSequence(
  tok: Tokenizer,
  instruction: string,
  turns: readonly PromptTurn[],
  options: PromptOptions,
): BuiltSequence {
  const { historyTurns } = options;
  if (!Number.isInteger(historyTurns) || historyTurns < 1) {
    throw new Error(`buildSequence: historyTurns must be an integer >= 1, got ${historyTurns}`);
  }
  if (turns.length === 0) throw new Error('buildSequence: need at least one turn');
  turns.forEach((t, i) => {
    if (!t.response && i < turns.length - 1) throw new Error(`buildSequence: turn ${i + 1} has no response`);
  });
  const { segs, first, truncated } = fitTurns(tok, instruction, turns, options);
  return {
    ...flatten(tok, segs, first, options.lossOnEnvTokens === true),
    droppedTurns: first,
    truncated,
    generationPrompt: !turns[turns.length - 1]?.response,
  };
}
