// The built binary (dist/src/cli/main.js; build first) run as a user runs it, for the tests that
// judge whole runs: plain output (NO_COLOR, CI), everything it printed, and its exit code.
import { execFile } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = join(root, 'dist', 'src', 'cli', 'main.js');

export interface Run { code: number; stdout: string; stderr: string }

/** `obtpp …args` from the project's folder; a run past `timeoutMs` is killed (code -1). */
export function obtpp(args: string[], timeoutMs = 300_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: 'true' }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
