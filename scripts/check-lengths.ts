// The lint step's length check (`npm run lint`): every source file under src/ and scripts/ over
// 400 lines and every function over 80 (src/lengths.ts measures them), listed with their lengths;
// fails on an offender that scripts/lengths.allow does not list, on a listed one that is gone
// (remove its line: the list only shrinks) and on a file without its head comment. `--prune` deletes the lines whose offender is gone,
// for the day one is split; nothing adds a line but a person, in a reviewed commit.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagStrings } from '../src/cli/flags.js';
import { checkLengths, parseAllowlist, type SourceText } from '../src/lengths.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ALLOW = join(root, 'scripts', 'lengths.allow');

function sources(dir: string): SourceText[] {
  const out: SourceText[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.tsx?$/.test(e.name)) continue;
    const abs = join(e.parentPath, e.name);
    out.push({ path: relative(root, abs).split('\\').join('/'), text: readFileSync(abs, 'utf8') });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const tree = [...sources('src'), ...sources('scripts')];
const allowText = readFileSync(ALLOW, 'utf8');
let report = checkLengths(tree, parseAllowlist(allowText));

if (
  flagStrings(process.argv.slice(2), [
    { name: 'prune', kind: 'bool', help: 'delete listed offenders that are gone' },
  ]).has('prune')
) {
  const gone = new Set(report.stale);
  const kept = allowText
    .split('\n')
    .filter((l) => !gone.has(l.replace(/#.*/, '').trim().split(/\s+/).join(' ')));
  writeFileSync(ALLOW, kept.join('\n'));
  console.log(`lengths: ${gone.size} lines whose offender is gone deleted from scripts/lengths.allow`);
  report = checkLengths(tree, parseAllowlist(kept.join('\n')));
}

const files = report.all.filter((o) => o.kind === 'file').length;
console.log(
  `lengths: ${files} files over 400 lines, ${report.all.length - files} functions over 80 (all listed in scripts/lengths.allow unless named below)`,
);
for (const o of report.unlisted)
  console.error(
    `  new: ${o.path}${o.name ? ` ${o.name}` : ''} is ${o.lines} lines (split it; the list only shrinks)`,
  );
for (const k of report.stale)
  console.error(`  gone: "${k}" is within its limit now (or renamed or removed): delete its line`);
for (const p of report.headless)
  console.error(`  no head comment: ${p}'s first line is not a comment (say what the file owns)`);
process.exit(report.unlisted.length + report.stale.length + report.headless.length > 0 ? 1 : 0);
