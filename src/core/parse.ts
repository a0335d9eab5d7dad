// Parses the agent's turn `<think>…</think><answer>…</answer>` into thinking and actions.
// Follows RAGEN's parser (RAGEN-AI/RAGEN): the regex `<think>(.*?)</think>\s*<answer>(.*?)</answer>`
// (non-greedy, across newlines), the answer split on `||` and truncated to
// `max_actions_per_turn`. RAGEN keeps the raw text when the match fails; here the failure is also
// named, so the rollout can apply the format penalty (−0.1 per malformed turn) and the UI can say why.

/** Why a response is malformed. */
export type FormatIssue =
  /** No `</think>` closes the thinking. */
  | 'unclosed-think'
  /** No `<answer>` after the thinking. */
  | 'no-answer'
  /** `<answer>` is never closed by `</answer>`. */
  | 'unclosed-answer'
  /** The answer holds no action text. */
  | 'empty-answer'
  /** Something other than whitespace sits between `</think>` and `<answer>`. */
  | 'text-between-tags'
  /** A `||`-separated piece of the answer is empty (e.g. `left ||`). */
  | 'empty-action';

export interface ParsedResponse {
  /** Thinking text between the tags, trimmed ('' when absent). */
  think: string;
  /** Answer text between the tags, trimmed ('' when absent). */
  answer: string;
  /** Actions from the answer, trimmed, at most `maxActionsPerTurn`. */
  actions: string[];
  /** Actions cut because the answer had more than `maxActionsPerTurn`. */
  droppedActions: number;
  /** True when `issues` is empty. */
  formatOk: boolean;
  issues: FormatIssue[];
}

export interface ParseOptions {
  /** RAGEN's `max_actions_per_turn`, at least 1. */
  maxActionsPerTurn: number;
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const ANSWER_OPEN = '<answer>';
const ANSWER_CLOSE = '</answer>';

/**
 * Parses one response. `text` is the agent's turn with or without the forced leading `<think>`
 * (the prompt supplies it, so the sampled text usually starts with the thinking itself).
 * Never throws on model output; the actions of a malformed response are those that could still
 * be read (none unless an answer was opened and closed).
 */
export function parseResponse(text: string, options: ParseOptions): ParsedResponse {
  if (!Number.isInteger(options.maxActionsPerTurn) || options.maxActionsPerTurn < 1) {
    throw new Error(
      `parseResponse: maxActionsPerTurn must be an integer >= 1, got ${options.maxActionsPerTurn}`,
    );
  }
  const body = text.trimStart().startsWith(THINK_OPEN) ? text.trimStart().slice(THINK_OPEN.length) : text;
  const issues: FormatIssue[] = [];
  const thinkEnd = body.indexOf(THINK_CLOSE);
  let think = '';
  let rest = body;
  if (thinkEnd < 0) {
    issues.push('unclosed-think');
  } else {
    think = body.slice(0, thinkEnd).trim();
    rest = body.slice(thinkEnd + THINK_CLOSE.length);
  }
  const answerStart = rest.indexOf(ANSWER_OPEN);
  let answer = '';
  let closed = false;
  if (answerStart < 0) {
    issues.push('no-answer');
  } else {
    if (thinkEnd >= 0 && rest.slice(0, answerStart).trim() !== '') issues.push('text-between-tags');
    const inner = rest.slice(answerStart + ANSWER_OPEN.length);
    const answerEnd = inner.indexOf(ANSWER_CLOSE);
    if (answerEnd < 0) {
      issues.push('unclosed-answer');
      answer = inner.trim();
    } else {
      answer = inner.slice(0, answerEnd).trim();
      closed = true;
    }
  }
  let actions: string[] = [];
  let droppedActions = 0;
  if (closed) {
    if (answer === '') {
      issues.push('empty-answer');
    } else {
      const pieces = answer.split('||').map((p) => p.trim());
      if (pieces.some((p) => p === '')) issues.push('empty-action');
      const nonEmpty = pieces.filter((p) => p !== '');
      actions = nonEmpty.slice(0, options.maxActionsPerTurn);
      droppedActions = nonEmpty.length - actions.length;
    }
  }
  return { think, answer, actions, droppedActions, formatOk: issues.length === 0, issues };
}
