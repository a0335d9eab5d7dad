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
