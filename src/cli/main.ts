// `starpo <command>`: the Node entry of the playground's training core.
import { readFileSync } from 'node:fs';
import { type CliIo, runGuarded } from './command.js';
import { commands } from './commands/index.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(pkg.version);
}

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  const rows = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: npm run starpo -- <command> [options]',
    '',
    'commands:',
    ...rows,
    '',
    'options:',
    "  --help       this text, or a command's usage after its name",
    '  --version    the playground version',
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`starpo: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return runGuarded(command, rest, io);
}

// A reader that stops early (`results cat … | head -1`) closes the pipe: that is the end of the
// output, not a fault.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});
const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`starpo: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
