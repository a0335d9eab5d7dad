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

/** Runs a command, turning a UsageError into exit 2 with the usage and any other error into exit 1. */
export async function runGuarded(command: Command, args: string[], io: CliIo): Promise<number> {
  try {
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`starpo ${command.name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    io.stderr.write(`starpo ${command.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
