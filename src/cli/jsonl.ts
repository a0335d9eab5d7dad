// JSON Lines in, JSON Lines out, for the contract commands (docs/cli-contracts.md): one output line
// per input line, in order; a bad line yields {"id": <id or null>, "error": "..."} and the run
// goes on.
import { createInterface } from 'node:readline';

/** Longest input line accepted, in characters; longer lines are refused before parsing. */
export const MAX_LINE_CHARS = 8_000_000;

function idOf(value: unknown): string | number | null {
  if (value && typeof value === 'object' && 'id' in value) {
    const id = (value as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}

/**
 * Reads `input` line by line, calls `handle` on each parsed JSON value, and writes its result
 * (or an error object) as one line. Blank lines are skipped. Resolves to the line count.
 */
export async function mapJsonLines(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handle: (value: unknown) => object,
): Promise<number> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let count = 0;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    count++;
    let result: object;
    if (line.length > MAX_LINE_CHARS) {
      result = { id: null, error: `line ${count} is longer than ${MAX_LINE_CHARS} characters` };
    } else {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        value = undefined;
        result = { id: null, error: `line ${count} is not valid JSON: ${(err as Error).message}` };
      }
      if (value !== undefined) {
        try {
          result = handle(value);
        } catch (err) {
          result = { id: idOf(value), error: (err as Error).message };
        }
      }
    }
    output.write(`${JSON.stringify(result!)}\n`);
  }
  return count;
}
