// Issue 25, item 4: a bank's text cannot drive the user's terminal. Its error descriptions, ids,
// names and messages carry ESC sequences (clear screen, colours, cursor moves, a window title),
// C1 controls, a carriage return, bidi overrides and newlines followed by a fake line of obtpp's
// own; obtpp conform, register and accounts run against it, and every byte they print is checked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { Chalk } from 'chalk';
import { runObtpp, type Run } from '../helpers/obtpp.ts';
import { startHostileBank, hostileProfile, writeSessionState, type HostileBank } from './hostile-bank.ts';
import { forTerminal, inline, painter } from '../../src/cli/terminal.ts';

const FAKE = 'FAKE-LINE ✓ [A] AIS-01 passed';
const NASTY = `\u001b[2J\u001b[H\u001b[31mred\u001b[0m \u001b]0;pwned-title\u0007 \u009b31m \r overwrite \u202eevil\u202c \u0000\u0008 bell\u0007 del\u007f\n${FAKE}\r\n${FAKE}`;
// C0 but newline and tab, DEL, C1, bidi controls: none may reach the terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('forTerminal and painter: outside text shown escaped, obtpp\'s own colours kept', () => {
  assert.equal(inline('a\u001b[31mb\nc\rd\u009be\u202ef'), 'a\\x1b[31mb\\nc\\rd\\x9be\\u202ef');
  const c = painter(new Chalk({ level: 1 }), ['red', 'bold']);
  const out = forTerminal(`${c.red('FAIL')} ${c.bold(NASTY)} ${NASTY}`, 'inline');
  // Only our own ESC sequences (red and bold on and off; chalk closes and reopens around a line break).
  assert.deepEqual([...new Set(out.match(/\u001b\[[0-9;]*m/g))].sort(), ['\u001b[1m', '\u001b[22m', '\u001b[31m', '\u001b[39m']);
  assert.equal(out.replace(/\u001b\[(31|39|1|22)m/g, '').match(CONTROL), null);
  assert.ok(!out.includes('\n'));
  assert.ok(out.includes('\\x1b[2J') && out.includes('\\n' + FAKE));
});

let bank: HostileBank;
let work: string;
let profilePath: string;
let statePath: string;
const env: Record<string, string> = {};

before(async () => {
  bank = await startHostileBank({
    echo: NASTY,
    answers: {
      '/accounts': { Data: { Account: [{ AccountId: `acc-1${NASTY}`, Currency: 'GBP', Nickname: NASTY, AccountType: 'Personal', AccountSubType: 'CurrentAccount', Account: [{ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: NASTY, Name: NASTY }] }] }, Links: { Self: '/accounts' }, Meta: {} },
    },
  });
  work = await mkdtemp(join(tmpdir(), 'obtpp-hostile-terminal-'));
  profilePath = join(work, 'hostile.json');
  statePath = join(work, 'state.json');
  await writeFile(profilePath, JSON.stringify(hostileProfile(bank.base)), { mode: 0o600 });
  await writeSessionState(statePath, bank.base, { id: 'aac-1', status: 'Authorised' },
    { accessToken: 'at-terminal-1', expiresAt: Date.now() + 3_600_000, obtainedAt: Date.now() });
  Object.assign(env, {
    H_CLIENT_SECRET: 'terminal-secret-1',
    H_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    H_PSU_PASSWORD: 'pw-terminal', H_PSU_USER: 'user-terminal', H_SSA: 'a.b.c',
  });
});

after(async () => {
  await bank?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function assertSafe(what: string, r: Run): void {
  for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
    const bad = CONTROL.exec(text);
    assert.equal(bad, null, `${what} ${stream}: control character U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad?.index}: ${JSON.stringify(text.slice(Math.max(0, (bad?.index ?? 0) - 40), (bad?.index ?? 0) + 40))}`);
    // A newline in the bank's text never starts a line of obtpp's output.
    assert.ok(!text.split('\n').some((l) => l.startsWith(FAKE)), `${what} ${stream}: a line starts with the bank's fake line:\n${text}`);
  }
}

test('conform, register, accounts (table and --json) and --verbose against a bank full of control characters: none reaches the terminal', { timeout: 300_000 }, async () => {
  const common = ['--profile', profilePath, '--state', statePath];
  const runs = await Promise.all([
    runObtpp(['conform', '--profile', profilePath, '--report-dir', join(work, 'report'), '--tags', '@AIS-01 or @DCR-01', '--verbose'], { env }),
    runObtpp(['register', ...common, '--verbose'], { env }),
  ]);
  runs.push(await runObtpp(['accounts', ...common], { env }));
  runs.push(await runObtpp(['accounts', ...common, '--json'], { env }));
  const [conform, register, accounts, accountsJson] = runs as [Run, Run, Run, Run];
  assert.equal(conform.code, 1, conform.stderr);
  assert.equal(register.code, 1, register.stderr);
  assert.equal(accounts.code, 0, accounts.stderr);
  assert.equal(accountsJson.code, 0, accountsJson.stderr);
  // The bank's text is shown — escaped — where it matters.
  // The bank's description quoted (a JSON string literal, issue 41): its ESC and newline written as escapes.
  assert.match(register.stderr, /^obtpp: the bank refused the registration: invalid_software_statement: "\\u001b\[2J.*\\nFAKE-LINE/m);
  assert.match(accounts.stdout, /\\x1b\[2J/);
  assert.equal(JSON.parse(accountsJson.stdout).Data.Account[0].Nickname, NASTY, '--json keeps the bank\'s text exactly (escaped as JSON)');
  for (const [name, r] of [['conform', conform], ['register', register], ['accounts', accounts], ['accounts --json', accountsJson]] as const) assertSafe(name, r);
});
