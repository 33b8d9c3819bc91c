import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { lstat, readdir, readlink, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeptPromises } from '../kept.ts';

export interface FileDigest {
  /** Relative to the directory that was walked, with `/` separators. */
  path: string;
  /** Lower-case hex SHA-256 of the file's bytes (of the link text, for a symbolic link). */
  sha256: string;
  bytes: number;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of a file, streamed (messages.ndjson of a long run is megabytes). */
export function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    createReadStream(file)
      .on('data', (chunk) => {
        bytes += chunk.length;
        hash.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolve({ sha256: hash.digest('hex'), bytes }));
  });
}

/**
 * Every file under `dir`, digested, sorted by path (byte order, so that every machine agrees).
 * `skip` names top-level entries left out (the attestation itself). A symbolic link is recorded
 * by its target's text, never followed: the manifest says what is in the folder, not elsewhere.
 */
export async function digestTree(dir: string, skip: string[] = []): Promise<FileDigest[]> {
  const out: FileDigest[] = [];
  const walk = async (sub: string): Promise<void> => {
    const entries = await readdir(join(dir, sub), { withFileTypes: true });
    for (const entry of entries) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (!sub && skip.includes(entry.name)) continue;
      const full = join(dir, rel);
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isSymbolicLink()) {
        const target = await readlink(full);
        out.push({ path: rel, sha256: sha256(`symlink:${target}`), bytes: (await lstat(full)).size });
      } else out.push({ path: rel, ...(await sha256File(full)) });
    }
  };
  await walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** JSON with object keys sorted at every level: the same value always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The obtpp package's root (the folder of its package.json), from src/ or dist/src/. */
export function obtppPackageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'obtpp') return dir;
      } catch {
        /* not ours: keep looking upward */
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

export interface PackageDigest {
  name: string;
  version: string;
  /** SHA-256 over the listing below: one `<sha256>  <path>\n` line per file, sorted by path (sha256sum's format). */
  sha256: string;
  files: number;
  /** What was hashed, in words, so that anyone can recompute it. */
  covers: string;
}

/** Each package root's digest, computed once per process (see packageDigest). */
const packageDigests = new KeptPromises<string, PackageDigest>();

/**
 * The digest of the installed obtpp package: package.json and every file under the entries of its
 * `files` field (dist, features, profiles, README.md) — what `npm pack` ships, as installed here.
 * Computed once per process and root (a program that signs or verifies many runs hashes the
 * package once): what a process runs is the package it loaded, whatever changes on disk later.
 */
export function packageDigest(root = obtppPackageRoot()): Promise<PackageDigest | undefined> {
  if (!root) return Promise.resolve(undefined);
  // A failure is not kept: the next call tries again.
  return packageDigests.get(root, () => digestPackage(root));
}

async function digestPackage(root: string): Promise<PackageDigest> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; version: string; files?: string[] };
  const listing: FileDigest[] = [{ path: 'package.json', ...(await sha256File(join(root, 'package.json'))) }];
  for (const entry of pkg.files ?? []) {
    const full = join(root, entry);
    if (!existsSync(full)) continue;
    if ((await lstat(full)).isDirectory()) listing.push(...(await digestTree(full)).map((f) => ({ ...f, path: `${entry}/${f.path}` })));
    else listing.push({ path: entry, ...(await sha256File(full)) });
  }
  listing.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    name: pkg.name,
    version: pkg.version,
    sha256: sha256(listing.map((f) => `${f.sha256}  ${f.path}\n`).join('')),
    files: listing.length,
    covers: `package.json and every file under its "files" entries (${(pkg.files ?? []).join(', ')}), as sha256sum lines sorted by path`,
  };
}
