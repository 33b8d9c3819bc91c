// Build step (after tsc): the files the compiled modules read beside themselves that tsc does not
// emit (the HTML report's stylesheet), copied from src/ into dist/src/.
import { copyFileSync } from 'node:fs';

for (const file of ['conformance/report.css']) copyFileSync(new URL(`../src/${file}`, import.meta.url), new URL(`../dist/src/${file}`, import.meta.url));
