/**
 * Reading the files a user points obtpp at (profiles, waivers, baselines, keys), so that no input
 * can hang or swamp a run: only regular files are read (a FIFO or /dev/zero would block or never
 * end), each up to a size limit that an honest file stays far below, and YAML is parsed in time
 * linear in its size (the yaml library's own duplicate-key check compares every key with every
 * other: 40,000 keys took a minute; without it, and within the 256 KiB of a profile, parsing
 * takes well under a second).
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** Limits of the inputs, in bytes. A profile of every field with its comments is about 20 KiB. */
export const INPUT_LIMITS = {
  /** A profile (YAML or JSON): the example documenting every field is 25 KiB. */
  profile: 256 * 1024,
  /** The files a profile names (keys, certificates, a CA bundle, a JWKS). */
  referenced: 1024 * 1024,
  /** A waiver file. */
  waivers: 256 * 1024,
  /** A baseline's summary.json: a run's evidence makes it larger than the others. */
  baseline: 64 * 1024 * 1024,
  /** A private key (PEM or JWK) for --attest. */
  key: 64 * 1024,
} as const;

/** Why a file could not be read (one clause: "is a FIFO, not a regular file"), with the errno code when there was one. */
export class InputFileError extends Error {
  readonly code?: string;
  constructor(message: string, code?: string) {
    super(message);
    this.name = 'InputFileError';
    this.code = code;
  }
}

/**
 * A regular file's text, refused (InputFileError) when it is anything else or larger than
 * `maxBytes`. Opened without blocking (a FIFO with no writer would hold the open) and without
 * following a symlink's target being a device: the check is on what was opened, not on the name.
 */
export async function readInputFile(file: string, maxBytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(code ?? (error as Error).message, code);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new InputFileError(`is ${kindOf(info)}, not a regular file`);
    if (info.size > maxBytes) throw new InputFileError(`is ${info.size} bytes, more than the ${maxBytes} bytes allowed`);
    // The size said may change while reading: no more than the limit is read regardless.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new InputFileError(`is more than the ${maxBytes} bytes allowed`);
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function kindOf(info: import('node:fs').Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * YAML to plain data in linear time: the library's duplicate-key check is off (it is quadratic)
 * and done here with one set per mapping. Aliases are capped (the library's default, 100 per
 * document), so "billion laughs" expands to nothing large. Throws the library's errors (with
 * their line and column), or one naming the duplicated key and its line.
 */
export async function parseYaml(text: string): Promise<unknown> {
  const { parseDocument, visit, isScalar, LineCounter } = await import('yaml');
  const lines = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: lines });
  if (doc.errors.length) throw doc.errors[0];
  let duplicate: Error | undefined;
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (!seen.has(key)) {
          seen.add(key);
          continue;
        }
        const at = isScalar(pair.key) && pair.key.range ? lines.linePos(pair.key.range[0]) : undefined;
        duplicate = Object.assign(new Error(`Map keys must be unique: ${JSON.stringify(String(key))}${at ? ` at line ${at.line}, column ${at.col}` : ''}`), at ? { linePos: [at] } : {});
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (duplicate) throw duplicate;
  return doc.toJS({ maxAliasCount: 100 });
}
