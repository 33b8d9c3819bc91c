#!/usr/bin/env node
// The only module that touches `process`: it builds the Io, runs the program, sets the exit code.
import { enableCompileCache } from 'node:module';

// Compiled code is cached on disk (the OS temp dir), so every later start skips parsing.
// The rest of the CLI is imported after this, so it benefits already on the second run.
enableCompileCache?.();

const { ioFromProcess } = await import('./io.ts');
const { runCli } = await import('./program.ts');

// A closed pipe (`obtpp --help | head`) is not an error of ours: stop writing, exit normally.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

const io = ioFromProcess();
const code = await runCli(process.argv.slice(2), io);
process.exitCode = code;
