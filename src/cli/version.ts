import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The package's version, read from package.json beside src/ or dist/src/. */
export function version(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'obtpp' && pkg.version) return (cached = pkg.version);
    } catch {
      /* keep looking upward */
    }
    dir = dirname(dir);
  }
  return (cached = '0.0.0');
}
