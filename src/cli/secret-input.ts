/**
 * Secrets the user gives a command on stdin (the PSU's password and one-time password of an
 * embedded SCA): one per line when piped (`--password-stdin`, `--otp-stdin`, in that order), or
 * asked on the terminal with the echo off. What is read is never written anywhere: the caller
 * hands it to the request and to the redactor only.
 */
import { UsageError } from '../errors.ts';
import type { Io } from './io.ts';

type What = 'password' | 'one-time password';

/**
 * The source of the secrets a command was told to read: `password` and `otp` say which come from
 * stdin's lines; any other is asked on the terminal when stdin is one, else it is a usage error.
 */
export function stdinLines(io: Io, password: boolean, otp: boolean): (what: What) => Promise<string> {
  const reader = io.stdin ? lineReader(io.stdin) : undefined;
  return async (what) => {
    const piped = what === 'password' ? password : otp;
    if (piped) {
      if (!reader) throw new UsageError(`--${what === 'password' ? 'password' : 'otp'}-stdin: there is no stdin to read`);
      const line = await reader.next();
      if (line === undefined || line === '') throw new UsageError(`--${what === 'password' ? 'password' : 'otp'}-stdin: stdin ended before the PSU's ${what}`);
      return line;
    }
    if (io.stdin?.isTTY && io.stdin.setRawMode && reader) {
      io.stderr.write(`the PSU's ${what} (not shown): `);
      io.stdin.setRawMode(true);
      try {
        const line = await reader.next(true);
        io.stderr.write('\n');
        if (line === undefined) throw new UsageError(`no ${what} was typed`);
        return line;
      } finally {
        io.stdin.setRawMode(false);
      }
    }
    throw new UsageError(`the embedded SCA needs the PSU's ${what}, and none was given`, {
      hint: what === 'password' ? 'pipe it in with --password-stdin, or give psu.password in the profile' : 'pipe it in with --otp-stdin, or give sca.otp in the profile',
    });
  };
}

/** Lines of a stream, one at a time; in raw mode (a terminal) the line ends at Enter, Backspace edits it, Ctrl-C or Ctrl-D gives up. */
function lineReader(stream: NonNullable<Io['stdin']>): { next(raw?: boolean): Promise<string | undefined> } {
  let buffer = '';
  let ended = false;
  let waiting: { raw: boolean; resolve: (line: string | undefined) => void } | undefined;
  let listening = false;
  const deliver = () => {
    if (!waiting) return;
    if (waiting.raw) {
      let line = '';
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i]!;
        if (ch === '\r' || ch === '\n') return done(line, i + 1);
        if (ch === '\u0003' || ch === '\u0004') return done(undefined, buffer.length);
        line = ch === '\x7f' || ch === '\b' ? line.slice(0, -1) : line + ch;
      }
    } else {
      const at = buffer.indexOf('\n');
      if (at >= 0) return done(buffer.slice(0, at).replace(/\r$/, ''), at + 1);
    }
    if (ended) done(buffer === '' ? undefined : buffer, buffer.length);
  };
  const done = (line: string | undefined, consumed: number) => {
    buffer = buffer.slice(consumed);
    const w = waiting!;
    waiting = undefined;
    stream.pause();
    w.resolve(line);
  };
  return {
    next(raw = false) {
      return new Promise((resolve) => {
        waiting = { raw, resolve };
        if (!listening) {
          listening = true;
          stream.setEncoding?.('utf8');
          stream.on('data', (chunk: string | Buffer) => {
            buffer += String(chunk);
            deliver();
          });
          stream.on('end', () => {
            ended = true;
            deliver();
          });
        }
        stream.resume();
        deliver();
      });
    },
  };
}
