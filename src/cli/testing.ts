// Runs a CLI command in-process with string stdin and captured stdout/stderr, for tests.
import { PassThrough, Readable } from 'node:stream';
import { type Command, runGuarded } from './command.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCommand(command: Command, args: string[], stdin = ''): Promise<CommandResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c) => out.push(String(c)));
  stderr.on('data', (c) => err.push(String(c)));
  const code = await runGuarded(command, args, { stdin: Readable.from([stdin]), stdout, stderr });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** Runs `command` and resolves to its stderr, asserting exit status 2 (unusable arguments). */
export async function usageErrorOf(command: Command, args: string[], stdin = ''): Promise<string> {
  const r = await runCommand(command, args, stdin);
  if (r.code !== 2) throw new Error(`expected exit 2 for ${args.join(' ')}, got ${r.code}: ${r.stderr}`);
  return r.stderr;
}

/** The smallest rollout a command test trains: 2 groups × 2 one-turn rollouts of short answers. */
export const TINY_ROLLOUT_FLAGS: readonly string[] = [
  '--groups',
  '2',
  '--group-size',
  '2',
  '--max-turns',
  '1',
  '--max-tokens',
  '6',
  '--context',
  '128',
];
