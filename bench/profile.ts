/**
 * Where the time of one `obtpp conform` (embedded sandbox, A+B) goes. Runs it once under
 * `node --cpu-prof`, samples the CPU time of Chromium's processes from /proc meanwhile, and prints
 * the Node process's CPU (from /proc) split by the profile's shares (each sample goes to the nearest
 * frame of a known package or project folder on its stack), next to Chromium's. On a loaded machine
 * the profiler's own times stretch with waiting for a core; the CPU times from /proc do not.
 * Linux only (/proc).
 *   node bench/profile.ts [--json] [--standard uk-3.1|uk-4.0]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { treeCpuMs } from './proc.ts';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'cli', 'main.js');
const asJson = process.argv.includes('--json');
const at = process.argv.indexOf('--standard');
const standard = at > 0 && process.argv[at + 1] ? ['--standard', process.argv[at + 1]!] : [];
const work = mkdtempSync(join(tmpdir(), 'obtpp-profile-'));

/** CPU ms of every process under `root` (itself excluded), by pid: the last value seen survives the process. */
const chromium = new Map<number, number>();
let nodeCpuMs = 0;
function sample(root: number): void {
  for (const [pid, ms] of treeCpuMs(root)) {
    if (pid === root) nodeCpuMs = ms;
    else chromium.set(pid, ms);
  }
}

const t0 = performance.now();
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', work, bin, 'conform', ...standard, '--report-dir', join(work, 'reports')], {
  stdio: 'ignore',
  env: { ...process.env, NO_COLOR: '1', CI: 'true' },
});
const poll = setInterval(() => sample(child.pid!), 50);
const code = await new Promise<number | null>((r) => child.on('exit', r));
clearInterval(poll);
const wallMs = performance.now() - t0;
const summary = JSON.parse(readFileSync(join(work, 'reports', 'summary.json'), 'utf8'));
const file = readdirSync(work).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(work, file), 'utf8')) as {
  nodes: Array<{ id: number; callFrame: { url: string; functionName: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
};
rmSync(work, { recursive: true, force: true });

/** The part a frame belongs to, or undefined to look at its caller. */
const PARTS: Array<[string, RegExp]> = [
  ['the sandbox bank (oidc-provider, koa, its pages and APIs)', /\/src\/sandbox\/|node_modules\/(oidc-provider|koa|@koa|cookies|keygrip|koa-compose|raw-body|http-errors|statuses|quick-lru|eta)\//],
  ['PSU authorisations: driving Chromium (puppeteer, src/psu)', /node_modules\/(puppeteer|puppeteer-core|chromium-bidi|ws|devtools-protocol|debug)\/|\/src\/psu\//],
  ['OAuth on the TPP side (openid-client, jose, src/auth)', /node_modules\/(openid-client|oauth4webapi|jose)\/|\/src\/auth\//],
  ['HTTP client (undici, capture, redaction)', /node_modules\/undici\/|\/src\/client\//],
  ['validation (ajv validators, the OBIE dialect)', /node_modules\/(ajv|ajv-formats|fast-uri|fast-deep-equal)\/|\/src\/dialects\/|validators/],
  ['cucumber (runtime, Gherkin, messages, formatters)', /node_modules\/(@cucumber|cucumber-|regexp-|knuth-shuffle|mime|luxon|xmlbuilder|assertion-error|error-stack-parser|stackframe|source-map|class-transformer|reflect-metadata|commander|yaml|lodash)/],
  ['steps and reporting (step definitions, summary, report.html)', /\/step-definitions\/|\/src\/conformance\//],
  ['CLI, profile and the rest of obtpp', /\/src\//],
];
const LOADING = /^(compileSourceTextModule|ModuleWrap|internalModuleStat|wrapSafe|compileForInternalLoader|readFileUtf8|realpathSync|link|instantiate|evaluate)$/;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const partOf = new Map<number, string>();
function part(id: number): string {
  const known = partOf.get(id);
  if (known) return known;
  const { url, functionName } = byId.get(id)!.callFrame;
  let out: string | undefined;
  if (functionName === '(idle)') out = 'idle';
  else if (functionName === '(garbage collector)') out = 'garbage collection';
  else if (functionName === '(program)') out = 'V8 and Node internals';
  else if (LOADING.test(functionName)) out = 'start: loading and compiling modules';
  else out = PARTS.find(([, re]) => re.test(url))?.[0];
  if (!out) out = parent.has(id) ? part(parent.get(id)!) : 'V8 and Node internals';
  partOf.set(id, out);
  return out;
}
const ms = new Map<string, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const p = part(profile.samples[i]!);
  ms.set(p, (ms.get(p) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const idle = ms.get('idle') ?? 0;
ms.delete('idle');
const sampledMs = [...ms.values()].reduce((a, b) => a + b, 0);
// The profile gives the shares; /proc gives the CPU the process really used (all its threads).
for (const [k, v] of ms) ms.set(k, (v / sampledMs) * nodeCpuMs);
const nodeMs = nodeCpuMs;
const chromiumMs = [...chromium.values()].reduce((a, b) => a + b, 0);
const rows = [...ms].sort((a, b) => b[1] - a[1]);
const scenarios = summary.totals.scenarios.passed + summary.totals.scenarios.failed;

if (asJson) {
  console.log(JSON.stringify({ exit: code, wallMs, scenarios, nodeMs, idleMs: idle, chromiumMs, parts: Object.fromEntries(rows) }));
} else {
  const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
  console.log(`obtpp conform, sandbox, ${standard[1] ?? 'A+B'}: exit ${code}, ${scenarios} scenarios, ${s(wallMs)} wall`);
  console.log('');
  console.log('| where | CPU | share |');
  console.log('|---|---|---|');
  const all = nodeMs + chromiumMs;
  console.log(`| Chromium (all its processes) | ${s(chromiumMs)} | ${((100 * chromiumMs) / all).toFixed(0)} % |`);
  for (const [name, t] of rows) console.log(`| Node: ${name} | ${s(t)} | ${((100 * t) / all).toFixed(0)} % |`);
  console.log(`| (Node's main thread idle, waiting for Chromium or a socket, as sampled) | ${s(idle)} | |`);
}
