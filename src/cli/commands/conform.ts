import type { Io } from '../io.ts';
import { conform } from '../../conformance/runner.ts';
import type { Summary, RuleStatus } from '../../conformance/summary.ts';
import { listFaults } from '../../sandbox/faults.ts';
import { UsageError } from '../../errors.ts';
import { version } from '../version.ts';
import type { Variant } from '../../profile/types.ts';

interface Options {
  profile?: string;
  variant?: 'A' | 'B' | 'all';
  tags?: string;
  reportDir?: string;
  parallel?: number;
  journeys?: number;
  sandboxFault?: string[];
  json?: boolean;
}

export async function run(io: Io, options: Options): Promise<void> {
  const faults = options.sandboxFault ?? [];
  const known = new Set(listFaults().map((f) => f.name));
  const unknown = faults.filter((f) => !known.has(f));
  if (unknown.length) throw new UsageError(`unknown sandbox fault ${unknown.join(', ')} (see obtpp sandbox --list-faults)`);
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: io.color ? 1 : 0 });
  const twoVariants = !options.variant || options.variant === 'all';

  let done = 0;
  let failed = 0;
  let spinner: { text: string; start(): unknown; stop(): unknown } | undefined;
  if (io.interactive && !options.json) {
    const { default: ora } = await import('ora');
    spinner = ora({ text: 'starting…', stream: io.stderr as NodeJS.WriteStream, isEnabled: true });
    spinner.start();
  }
  const note = (line: string) => {
    if (spinner) spinner.text = line;
    else if (!options.json) io.stderr.write(line + '\n');
  };

  const result = await conform({
    profile: options.profile,
    variant: options.variant ?? 'all',
    tags: options.tags,
    reportDir: options.reportDir,
    parallel: options.parallel ?? 1,
    journeys: options.journeys,
    sandboxFaults: faults,
    cwd: io.cwd,
    env: io.env,
    version: version(),
    onNote: note,
    onScenario: ({ variant, rule, name, status, message }) => {
      done++;
      if (status === 'failed') failed++;
      const mark = status === 'passed' ? c.green('✓') : status === 'failed' ? c.red('✗') : c.yellow('-');
      if (spinner) spinner.text = `${done} scenarios, ${failed} failed — ${variant} ${rule} ${name}`;
      else if (!options.json) io.stderr.write(`${mark} [${variant}] ${rule} ${name}${status === 'failed' && message ? `\n    ${message.split('\n')[0]}` : ''}\n`);
    },
  }).finally(() => spinner?.stop());

  io.exitCode = result.exitCode;
  if (options.json) {
    io.stdout.write(JSON.stringify(result.summary, null, 2) + '\n');
    return;
  }
  io.stdout.write(renderTable(result.summary, c) + '\n');
  const s = result.summary;
  const verdict = s.verdict === 'pass' ? c.green.bold('CONFORMANT') : c.red.bold('NOT CONFORMANT');
  io.stdout.write(`\n${verdict}: ${s.totals.rules.passed} rule results passed, ${s.totals.rules.failed} failed, ${s.totals.rules['not-applicable']} not applicable, ${s.totals.rules.skipped} skipped — ${s.totals.scenarios.passed + s.totals.scenarios.failed + s.totals.scenarios.skipped} scenarios in ${(s.durationMs / 1000).toFixed(1)} s\n`);
  io.stdout.write(`reports: ${result.reportDir}/{summary.json,junit.xml,report.html,messages.ndjson}\n`);
}

function renderTable(summary: Summary, c: any): string {
  const variants = summary.variants.map((v) => v.variant);
  const ids = [...new Set(summary.variants.flatMap((v) => v.rules.map((r) => r.id)))].sort();
  const titles = new Map(summary.variants.flatMap((v) => v.rules.map((r) => [r.id, r.title] as const)));
  const cell = (s: RuleStatus | undefined) =>
    s === 'passed' ? c.green('pass') + '  ' : s === 'failed' ? c.red('FAIL') + '  ' : s === 'not-applicable' ? c.dim('n/a ') + '  ' : s === 'skipped' ? c.yellow('skip') + '  ' : '      ';
  const lines = [`rule    ${variants.map((v: Variant) => `${v}     `).join('')}title`];
  for (const id of ids) {
    const statuses = variants.map((v) => summary.variants.find((x) => x.variant === v)!.rules.find((r) => r.id === id)?.status);
    const title = titles.get(id) ?? '';
    lines.push(`${id.padEnd(8)}${statuses.map(cell).join('')}${title.length > 90 ? title.slice(0, 87) + '…' : title}`);
  }
  const failures = summary.variants.flatMap((v) => v.rules.flatMap((r) => r.failures.map((f) => ({ v: v.variant, r, f }))));
  if (failures.length) {
    lines.push('', c.bold('Failures:'));
    for (const { v, f } of failures.slice(0, 20)) lines.push(`  [${v}] ${f.scenario}\n    step: ${f.step}\n    ${f.message.split('\n').join('\n    ')}`);
    if (failures.length > 20) lines.push(`  … and ${failures.length - 20} more in summary.json`);
  }
  return lines.join('\n');
}
