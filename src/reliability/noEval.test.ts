// No code is ever built from strings (docs/security.md, "The page"; the CSP in vite.config.ts
// forbids it in the browser, Biome's noGlobalEval catches the plainest form): no eval, no Function constructor,
// no string timers, no javascript: URLs and no raw HTML injection in our own sources.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SELF = relative(ROOT, import.meta.filename);

const FORBIDDEN: readonly [string, RegExp][] = [
  ['eval', /(?<![\w.$])eval\s*\(/],
  ['Function constructor', /\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\(\s*['"`]/],
  ['string timer', /\bset(?:Timeout|Interval)\s*\(\s*['"`]/],
  ['javascript: URL', /['"`]\s*javascript:/i],
  [
    'raw HTML',
    /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write\s*\(/,
  ],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) ? [path] : [];
  });
}

describe('no code from strings', () => {
  it('src/, scripts/, index.html and the Vite config hold none of the forbidden forms', () => {
    const files = [
      ...sources(join(ROOT, 'src')),
      ...sources(join(ROOT, 'scripts')),
      join(ROOT, 'index.html'),
      join(ROOT, 'vite.config.ts'),
    ].filter((f) => relative(ROOT, f) !== SELF);
    expect(files.length).toBeGreaterThan(100);
    const hits: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [what, re] of FORBIDDEN)
            if (re.test(line)) hits.push(`${relative(ROOT, file)}:${i + 1} ${what}`);
        });
    }
    expect(hits).toEqual([]);
  });

  it('the patterns catch what they are meant to', () => {
    const caught = (line: string) => FORBIDDEN.filter(([, re]) => re.test(line)).map(([w]) => w);
    expect(caught('const f = eval("1+1");')).toEqual(['eval']);
    expect(caught('new Function("a", "return a")')).toEqual(['Function constructor']);
    expect(caught("setTimeout('tick()', 10)")).toEqual(['string timer']);
    expect(caught('el.innerHTML = text')).toEqual(['raw HTML']);
    expect(caught('a.href = "javascript:void(0)"')).toEqual(['javascript: URL']);
    expect(caught('model.evaluate(x); retrieval(y); setTimeout(resolve, 0)')).toEqual([]);
  });
});
