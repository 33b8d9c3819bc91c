import { constants } from 'node:fs';
import { lstat, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../../errors.ts';
import type { Io } from '../io.ts';
import { sandboxStandards, standardOf, versionOf } from '../../standards/registry.ts';
import type { SandboxPart, StandardModule } from '../../standards/standard.ts';
import type { Sandbox } from '../../sandbox/index.ts';

interface SandboxFlags {
  port?: string;
  host: string;
  tls?: boolean;
  /** A registered standard with a sandbox bank (the choices come from the registry). */
  dialect?: string;
  /** A published version's name. */
  standard?: string;
  fault: string[];
  listFaults?: boolean;
  json?: boolean;
  writeProfile?: string;
  sca?: string[];
  signatures?: boolean;
  security?: string;
  listSecurity?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export async function run(io: Io, flags: SandboxFlags): Promise<void> {
  const standard = standardOf(flags.dialect);
  const bank = standard.sandbox!;
  if (flags.listFaults) return printFaults(io, flags.json === true, await bank.listFaults());
  if (flags.listSecurity) return printSecurityList(io, flags.json === true);
  const { port, faults } = await checkFlags(flags, standard);

  const profileFile = flags.writeProfile ? resolve(io.cwd, flags.writeProfile) : undefined;
  if (profileFile) await refuseLink(profileFile);

  // oidc-provider is heavy: loaded only when a sandbox really starts.
  const { startSandbox } = await import('../../sandbox/index.ts');
  const dialect = standard.name;
  const sb = await startSandbox({ port, host: flags.host, tls: flags.tls === true, faults, dialect, ...(flags.security ? { security: flags.security as never } : {}), ...(flags.sca ? { sca: flags.sca as never } : {}), ...(flags.signatures ? { signatures: true } : {}) });
  // With --tls, the CA that signed the sandbox's certificate, as a file for curl --cacert and the like; removed at stop.
  let caDir: string | undefined;
  try {
    let caFile: string | undefined;
    if (sb.tls) {
      caDir = await mkdtemp(join(tmpdir(), 'obtpp-sandbox-ca-'));
      caFile = join(caDir, 'ca.pem');
      await writeFile(caFile, sb.tls.caPem, { mode: 0o644, flag: 'wx' });
    }
    if (profileFile) await writeSecretFile(profileFile, await profileText(profileFile, sb.profile(flags.standard ?? 'all')));
    const err = (line = '') => io.stderr.write(line + '\n');
    printWarnings(err, flags.host, faults);
    const shown = { sb, bank, faults, profileFile, caFile };
    if (flags.json) printJson(io, shown);
    else printLines(io, shown);
    err('Ctrl-C stops the sandbox.');
    if (io.waitForSignal) {
      const signal = await io.waitForSignal();
      err(`${signal}: stopping the sandbox.`);
    }
  } finally {
    await sb.stop();
    if (caDir) await rm(caDir, { recursive: true, force: true });
  }
}

/** The sandbox's security set-ups (--list-security): a name and what it runs, or their JSON. */
async function printSecurityList(io: Io, json: boolean): Promise<void> {
  const { SANDBOX_SECURITY } = await import('../../sandbox/security.ts');
  if (json) return void io.stdout.write(JSON.stringify(SANDBOX_SECURITY.map(({ name, description, profile }) => ({ name, description, profile })), null, 2) + '\n');
  for (const s of SANDBOX_SECURITY) io.stdout.write(`${s.name.padEnd(24)} ${s.description}\n`);
}

/**
 * The flags checked before anything starts (a usage error each): the security set-up, the port,
 * the faults, a --standard of this bank, and the options only another standard's bank takes.
 */
async function checkFlags(flags: SandboxFlags, standard: StandardModule): Promise<{ port: number; faults: string[] }> {
  const bank = standard.sandbox!;
  if (flags.security !== undefined) (await import('../../sandbox/security.ts')).sandboxSecurity(flags.security);
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${flags.port}: not a port number (0–65535)`);
  const faults = [...(await bank.parseFaults(flags.fault))];
  const owner = versionOf(flags.standard)?.standard;
  if (flags.standard && owner && owner !== standard) throw new UsageError(`--standard ${flags.standard} is ${owner.words.versions ?? `a ${owner.name} standard`}; the ${standard.name} bank has none (leave --standard out)`);
  // An option only another standard's bank takes: said, naming that bank.
  for (const [key, given] of [['sca', flags.sca !== undefined], ['signatures', flags.signatures === true]] as const) {
    if (!given || bank.options?.[key]) continue;
    const taker = sandboxStandards().find((st) => st.sandbox?.options?.[key]);
    const why = key === 'signatures' && standard.words.signs ? `: ${standard.words.signs}` : '';
    throw new UsageError(`${bank.options?.[key]?.flag ?? taker?.sandbox?.options?.[key]?.flag ?? `--${key}`} is for the ${taker?.name ?? 'other'} bank (--dialect ${taker?.name ?? 'other'})${why}`);
  }
  return { port, faults };
}

/** The banner on stderr: not a bank; bound beyond loopback; faults on. */
function printWarnings(err: (line?: string) => void, host: string, faults: string[]): void {
  err('==================================================================');
  err(' SANDBOX — not a bank. In-memory state, keys made at start, and the');
  err(' PSU passwords below are public. Never point real money at it.');
  err('==================================================================');
  if (!LOOPBACK.has(host)) err(`WARNING: bound to ${host}, not loopback: anyone who can reach this machine can use the sandbox.`);
  if (faults.length > 0) err(`Faults ON: ${faults.join(', ')} — this bank is deliberately non-conformant.`);
}

/** What a started sandbox shows: the bank, its faults, the profile and CA files written. */
interface Shown { sb: Sandbox; bank: SandboxPart; faults: string[]; profileFile?: string; caFile?: string }

/** The started sandbox as one JSON document on stdout (--json). */
function printJson(io: Io, { sb, bank, faults, profileFile, caFile }: Shown): void {
  io.stdout.write(JSON.stringify({
    issuer: sb.issuer, dialect: sb.dialect, ...(sb.security ? { security: sb.security.name } : {}), ...(sb.sca ? { sca: sb.sca } : {}), baseUrls: sb.baseUrls, ...(bank.describe?.json(sb.issuer) ?? {}), faults,
    clients: sb.clients.map((c) => ({ clientId: c.clientId, authMethod: c.authMethod })),
    psus: sb.psus.map((p) => ({ username: p.username, password: p.password, accounts: p.accounts.map((a) => a.AccountId), ...(p.accounts.some((a) => 'iban' in a) ? { ibans: p.accounts.map((a) => a.iban) } : {}) })),
    profile: profileFile,
    ...(caFile ? { ca: caFile } : {}),
  }, null, 2) + '\n');
}

/** The started sandbox as lines on stdout: issuer, base URLs, security, SCA, clients, PSU logins, files. */
function printLines(io: Io, { sb, bank, profileFile, caFile }: Shown): void {
  const out = (line = '') => io.stdout.write(line + '\n');
  out(`issuer (OpenID discovery at /.well-known/openid-configuration): ${sb.issuer}`);
  const api = bank.apiWords ?? '';
  out(`variant A: ${sb.baseUrls.A}${api}`);
  out(`variant B: ${sb.baseUrls.B}${api}`);
  for (const line of bank.describe?.lines(sb.issuer) ?? []) out(line);
  if (sb.security) out(`security:  ${sb.security.name}: ${sb.security.description}`);
  if (sb.sca) out(`SCA:       ${sb.sca.join(', ')}${sb.sca.includes('oauth') ? '' : ' (no OAuth2: the profile has no auth block)'}${sb.sca.includes('embedded') ? ' (the PSUs\' one-time password is the profile\'s sca.otp)' : ''}`);
  out(`clients:   ${sb.clients.map((c) => `${c.clientId} (${c.authMethod})`).join(', ')}`);
  out(`redirect:  ${sb.clients[0].redirectUri}`);
  out('PSU logins (sandbox only):');
  for (const p of sb.psus) out(`  ${p.username.padEnd(6)} / ${p.password.padEnd(13)} ${p.accounts.map((a) => (a.iban ? `${a.AccountId} (${a.iban})` : a.AccountId)).join(', ')}`);
  out(profileFile ? `profile:   ${profileFile}` : 'profile:   pass --write-profile FILE to get one (it carries the client secret)');
  if (caFile) out(`CA:        ${caFile} (curl --cacert ${caFile} …; removed when the sandbox stops)`);
}

function printFaults(io: Io, json: boolean, faults: ReadonlyArray<{ name: string; rule: string; description: string }>): void {
  if (json) {
    io.stdout.write(JSON.stringify(faults, null, 2) + '\n');
    return;
  }
  const width = Math.max(...faults.map((f) => f.name.length));
  io.stdout.write(`${'FAULT'.padEnd(width)}  RULE    WHAT THE SANDBOX DOES WRONG\n`);
  for (const f of faults) io.stdout.write(`${f.name.padEnd(width)}  ${f.rule.padEnd(6)}  ${f.description}\n`);
}

/** A symlink at the profile's path is refused: the profile's secrets would go wherever it points. */
async function refuseLink(file: string): Promise<void> {
  const info = await lstat(file).catch(() => undefined);
  if (info?.isSymbolicLink()) throw new UsageError(`--write-profile ${file} is a symbolic link: obtpp does not write the profile's secrets through one (remove it, or name another file)`);
  if (info && !info.isFile()) throw new UsageError(`--write-profile ${file} exists and is not a regular file`);
}

/**
 * Writes a file of secrets, 0600 from its creation: into a new file next to it (exclusive, never
 * following a link), then renamed over the path, which replaces whatever name is there (a link
 * put there since the check included) instead of writing through it.
 */
async function writeSecretFile(file: string, text: string): Promise<void> {
  await refuseLink(file);
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(text);
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw new UsageError(`--write-profile ${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

/** The profile as its file name says: JSON for .json, else YAML with a comment saying what it is. */
export async function profileText(file: string, profile: unknown): Promise<string> {
  if (extname(file).toLowerCase() === '.json') return JSON.stringify(profile, null, 2) + '\n';
  const { stringify } = await import('yaml');
  return `# obtpp sandbox profile — valid while this sandbox runs (fresh secrets at every start)\n${stringify(profile)}`;
}
