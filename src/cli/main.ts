#!/usr/bin/env node
// The only module that touches `process`: it builds the Io, runs the program, sets the exit code.
// Its static imports must link and run on any Node (no named import an old Node lacks): the
// version check comes first, and the rest of the CLI is imported only after it.
import * as nodeModule from 'node:module';
import { nodeGate, rerunWithNode24 } from './node-gate.ts';

const tooOld = nodeGate(process.version, rerunWithNode24(process.argv[1] ?? 'obtpp', process.argv.slice(2), process.env));
if (tooOld) {
  process.stderr.write(tooOld + '\n');
  process.exitCode = 3;
} else {
  // Compiled code is cached on disk (the OS temp dir), so every later start skips parsing.
  // The rest of the CLI is imported after this, so it benefits already on the second run.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

  // A run's memory stays bounded however obtpp was started (memory.ts says why and what it saves).
  (await import('./memory.ts')).boundYoungGeneration();

  const { ioFromProcess } = await import('./io.ts');
  const { runCli } = await import('./program.ts');

  // A closed pipe (`obtpp --help | head`) is not an error of ours: stop writing, exit normally.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
  }

  const io = ioFromProcess();
  process.exitCode = await runCli(process.argv.slice(2), io);
  // An interrupted run has stopped its browser and bank and written its summary: nothing that is
  // still winding down (a cucumber worker, a step's timer) may keep the process alive.
  if (process.exitCode === 130 || process.exitCode === 143) process.exit();
}
