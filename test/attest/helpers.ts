// Real runs of the binary (dist/; build first) against the embedded sandbox, limited by tags to stay fast.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runObtpp } from '../helpers/obtpp.ts';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = join(root, 'dist/src/cli/main.js');

export interface Run {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

export function obtpp(args: string[], env: Record<string, string | undefined> = {}, cwd = root): Promise<Run> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (npx tsc -p tsconfig.json)`);
  return runObtpp(args, { env, cwd }).then((r) => ({ args, ...r }));
}

export const show = (r: Run) => `obtpp ${r.args.join(' ')} → ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

export async function workDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `obtpp-${prefix}-`));
}

/** A key pair written as PEM files: private (PKCS#8) and public (SPKI). */
export async function keyPair(dir: string, name: string, type: 'rsa' | 'ec' | 'ed25519' = 'rsa'): Promise<{ privateFile: string; publicFile: string; privatePem: string; publicPem: string }> {
  const opts = type === 'rsa' ? { modulusLength: 2048 } : type === 'ec' ? { namedCurve: 'P-256' } : {};
  const { privateKey, publicKey } = generateKeyPairSync(type as 'rsa', opts as { modulusLength: number });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privateFile = join(dir, `${name}.key`);
  const publicFile = join(dir, `${name}.pub.pem`);
  await writeFile(privateFile, privatePem, { mode: 0o600 });
  await writeFile(publicFile, publicPem);
  return { privateFile, publicFile, privatePem, publicPem };
}

/** A copy of a report dir, to spoil without touching the original. */
export async function copyDir(from: string, to: string): Promise<string> {
  await cp(from, to, { recursive: true });
  return to;
}
