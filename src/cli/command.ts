// The shape of one CLI command. Each command lives in its own file under cli/commands/.

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface Command {
  name: string;
  /** One line for `starpo --help`. */
  summary: string;
  /** Full usage text for `starpo <name> --help`. */
  usage: string;
  /** Runs the command; resolves to the exit status (0 ok, 1 failure, 2 unusable arguments). */
  run(args: string[], io: CliIo): Promise<number>;
}

/** Thrown for unusable arguments; main prints the message and the usage, and exits 2. */
export class UsageError extends Error {}
