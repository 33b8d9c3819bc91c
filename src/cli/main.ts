#!/usr/bin/env node
// The only module that touches `process`: it builds the Io, runs the program, sets the exit code.
import { ioFromProcess } from './io.ts';
import { runCli } from './program.ts';

const io = ioFromProcess();
const code = await runCli(process.argv.slice(2), io);
process.exitCode = code;
