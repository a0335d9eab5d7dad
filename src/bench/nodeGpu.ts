// WebGPU in Node for the benchmark: the `webgpu` package (Dawn) needs a Vulkan driver, and on a
// machine without a GPU the one that works is SwiftShader's, shipped with Chromium.
// Dawn loads the Vulkan loader when the process starts, so
// the webgpu measurements run in a child process started with the loader's directory on
// LD_LIBRARY_PATH and VK_ICD_FILENAMES pointing at the SwiftShader ICD. The child runner itself
// (runJsonChild) serves every benchmark child, the WASM ones of throughputBench.ts too.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where Debian's chromium package puts SwiftShader's Vulkan ICD (override: STARPO_VK_ICD). */
const DEFAULT_ICDS = ['/usr/lib/chromium/vk_swiftshader_icd.json'];

/** The SwiftShader ICD file to use, or null when none is installed. */
export function swiftshaderIcd(): string | null {
  const wanted = process.env.STARPO_VK_ICD;
  if (wanted) return existsSync(wanted) ? wanted : null;
  return DEFAULT_ICDS.find((p) => existsSync(p)) ?? null;
}

/** Environment for a child that runs Dawn on SwiftShader. */
export function gpuChildEnv(icd: string): NodeJS.ProcessEnv {
  const libDir = dirname(icd);
  return {
    ...process.env,
    VK_ICD_FILENAMES: icd,
    LD_LIBRARY_PATH: [libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp',
  };
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The benchmark's own child entry (kernel check, webgpu part). */
export const GPU_CHILD = fileURLToPath(new URL('./gpuChild.ts', import.meta.url));

/** How a benchmark child runs and what it names itself in errors. */
export interface ChildOptions {
  /** In errors: "webgpu child", "presetChild echo-trap". */
  who: string;
  env?: NodeJS.ProcessEnv;
  /** stderr lines that start with "bench" (progress). */
  onLine?: (line: string) => void;
  /** Killed after this long (default: never). */
  timeoutMs?: number;
  /** A child that failed still hands over a last JSON line marked `"partial":true`. */
  acceptPartial?: boolean;
}

/**
 * Runs `node --import tsx <script> <args>` from the repository root; resolves to the last JSON
 * line of its stdout (on failure only if `acceptPartial` and marked `"partial":true`).
 */
export function runJsonChild(script: string, args: readonly string[], o: ChildOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repoRoot,
      ...(o.env ? { env: o.env } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString();
      err += text;
      if (o.onLine)
        for (const line of text.split('\n')) if (line.trim().startsWith('bench')) o.onLine(line.trim());
    });
    const timer = o.timeoutMs !== undefined ? setTimeout(() => child.kill('SIGTERM'), o.timeoutMs) : null;
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      const last = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .pop();
      // A child that ran out of time still hands over its last complete part (marked partial).
      if (last !== undefined && (code === 0 || (o.acceptPartial && last.includes('"partial":true')))) {
        try {
          resolve(JSON.parse(last));
          return;
        } catch {
          // fall through to the error below
        }
      }
      reject(new Error(`${o.who} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/**
 * Runs `script <args>` (by default gpuChild.ts) in a child process with the SwiftShader
 * environment; resolves to the last JSON line of its stdout (on failure only if marked
 * `"partial":true`). stderr progress lines go to `onLine`.
 */
export function runGpuChild(
  args: string[],
  icd: string,
  onLine: (line: string) => void,
  timeoutMs: number,
  script = GPU_CHILD,
): Promise<unknown> {
  return runJsonChild(script, args, {
    who: 'webgpu child',
    env: gpuChildEnv(icd),
    onLine,
    timeoutMs,
    acceptPartial: true,
  });
}
