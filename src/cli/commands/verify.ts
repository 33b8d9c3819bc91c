import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Io } from '../io.ts';
import { verifyAttestation } from '../../attest/attest.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { forTerminal, jsonForTerminal } from '../terminal.ts';

interface Options {
  key?: string;
  jwks?: string;
  json?: boolean;
}

export async function run(io: Io, dir: string, options: Options): Promise<void> {
  if (options.key && options.jwks) throw new UsageError('verify takes --key or --jwks, not both');
  if (!options.key && !options.jwks) throw new UsageError("verify needs the signer's public key: --key FILE or --jwks URL-or-file");
  const folder = resolve(io.cwd, dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder}: no such report dir`);
  const readArg = async (flag: string, file: string) => {
    try {
      return await readFile(resolve(io.cwd, file), 'utf8');
    } catch (error) {
      throw new UsageError(`${flag}: cannot read ${resolve(io.cwd, file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  const key = options.key ? await readArg('--key', options.key) : undefined;
  const jwks = options.jwks ? (/^https?:\/\//i.test(options.jwks) ? options.jwks : await readArg('--jwks', options.jwks)) : undefined;
  const result = await verifyAttestation(folder, { key, jwks });
  io.exitCode = result.ok ? ExitCode.ok : ExitCode.nonConformant;

  if (options.json) {
    const { manifest, ...rest } = result;
    const out = { ...rest, attested: manifest ? { tool: manifest.tool, standard: manifest.standard, profile: manifest.profile, run: manifest.run, signedAt: manifest.signedAt, files: manifest.files.length } : undefined };
    io.stdout.write(jsonForTerminal(out) + '\n');
    return;
  }
  if (result.signature !== 'valid' || !result.manifest) {
    io.stdout.write(forTerminal(`NOT VERIFIED: ${result.problem}`, 'inline') + '\n');
    return;
  }
  const m = result.manifest;
  if (!result.ok) {
    io.stdout.write(forTerminal(`NOT VERIFIED: ${result.problem}`, 'inline') + '\n');
    for (const x of (result.mismatches ?? []).slice(1, 10)) io.stdout.write(forTerminal(`  also ${x.reason}: ${x.file}`, 'inline') + '\n');
    io.stdout.write(`(the signature holds, kid ${result.kid}: the folder is not what was signed)\n`);
    return;
  }
  const verdictWord = m.verdict === 'pass' ? 'CONFORMANT' : m.verdict === 'fail' ? 'NOT CONFORMANT' : m.verdict.toUpperCase();
  const by = (s: string) => m.rules.filter((r) => r.status === s);
  const counts = ['passed', 'failed', 'waived', 'not-judged', 'not-applicable', 'skipped'].map((s) => [s, by(s).length] as const).filter(([, n]) => n > 0);
  const lines = [
    `VERIFIED: ${m.files.length} files as signed (${result.alg}, kid ${result.kid}) on ${m.signedAt}`,
    `attests: ${verdictWord} (verdict ${m.verdict}) — ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}`,
    `standard: ${m.standard.text}; profile: ${m.profile.label ?? m.profile.name ?? '?'}${m.profile.baseUrl ? ` at ${m.profile.baseUrl}` : ''}; variants ${[...new Set(m.rules.map((r) => r.variant))].join(', ')}`,
    `run: ${m.run.startedAt} → ${m.run.endedAt}; obtpp ${m.tool.version}${result.samePackage === true ? ' (this installation is the same package)' : result.samePackage === false ? ' (this installation is a different package)' : ''}`,
  ];
  for (const r of [...by('failed'), ...by('waived'), ...by('not-judged')]) lines.push(`  [${r.variant}] ${r.id} ${r.status}`);
  // A rule signed as passed on part of its scenarios reads as it was signed, never as a plain pass.
  for (const r of m.rules.filter((x) => x.status === 'passed' && x.verdict)) lines.push(`  [${r.variant}] ${r.id} ${r.verdict}`);
  io.stdout.write(forTerminal(lines.join('\n')) + '\n');
}
