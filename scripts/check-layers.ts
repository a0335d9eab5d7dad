// The lint step's structure check (`npm run lint`): the layers of the tree (src/layers.ts LAYERS),
// the floors inside core, the CLI and the page (CORE_FLOORS, CLI_FLOORS, UI_FLOORS) and no import circle in src/; each offending import is
// listed with its reason, and any fails the lint. src/layers.test.ts runs the same checks.
import { fileURLToPath } from 'node:url';
import {
  floorViolations,
  importCycles,
  layerViolations,
  readSources,
  type SourceFile,
} from '../src/layers.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const sources = (dir: string): SourceFile[] => readSources(root, dir);

const src = sources('src');
const problems = [
  ...layerViolations([...src, ...sources('scripts'), ...sources('tests')]),
  ...floorViolations(src),
].map((v) => `${v.file}${v.spec ? ` imports ${v.spec}` : ''}: ${v.reason}`);
for (const c of importCycles(src, 'src')) problems.push(`import circle: ${c.join(' → ')}`);
for (const p of problems) console.error(p);
console.log(`layers: ${problems.length} problem(s) (layers, core, CLI and page floors, circles)`);
if (problems.length > 0) process.exitCode = 1;
