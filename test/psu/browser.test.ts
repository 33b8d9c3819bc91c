/**
 * The browser module's mechanics in real Chromium, against a few local pages shaped like an
 * unknown bank: the declarative driver (fill, click, select, tick by name/number, choose debtor,
 * optional steps, decide), the redirect caught in the browser with nothing listening there,
 * login errors, time-outs with a screenshot, the password kept out of everything; manual mode.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PsuBrowser, type JourneyOptions } from '../../src/psu/index.ts';
import { AuthorisationError, BrowserUnavailableError, ExitCode } from '../../src/errors.ts';
import type { DriverStep } from '../../src/profile/types.ts';
import { closedPort, startTinyBank, type TinyBank } from './tiny-bank.ts';

const PASSWORD = 'Tiny-Bank-S3cret-Pass!';
const STEPS: DriverStep[] = [
  { action: 'fill', selector: '#user', value: '{username}' },
  { action: 'fill', selector: '#pass', value: '{password}' },
  { action: 'click', selector: '#go', waitForNavigation: true },
  { action: 'click', selector: '#cookies-ok', optional: true, name: 'cookie banner' },
  { action: 'click', selector: '#never-there', optional: true, name: 'marketing pop-up' },
  { action: 'waitFor', selector: '#consent' },
  { action: 'tickAccounts', selector: 'input.acct' },
  { action: 'chooseDebtor', selector: 'input.from', optional: true },
  { action: 'select', selector: '#duration', value: '90' },
  { action: 'decide', approve: '#yes', reject: '#no' },
];

let bank: TinyBank;
let browser: PsuBrowser;
let evidenceDir: string;
let redirectUri: string;

before(async () => {
  bank = await startTinyBank({ password: PASSWORD });
  browser = new PsuBrowser({ env: process.env });
  evidenceDir = mkdtempSync(join(tmpdir(), 'obtpp-psu-test-'));
  // Nothing listens here: the redirect must be caught inside the browser.
  redirectUri = `http://127.0.0.1:${await closedPort()}/callback`;
});

after(async () => {
  await browser.close();
  await bank.close();
  rmSync(evidenceDir, { recursive: true, force: true });
});

function authUrl(extra: Record<string, string> = {}): string {
  const u = new URL('/authorize', bank.url);
  u.searchParams.set('redirect_uri', redirectUri);
  u.searchParams.set('state', 'st-123');
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
  return u.href;
}

function options(over: Partial<JourneyOptions> = {}): JourneyOptions {
  return {
    redirectUri,
    driver: { kind: 'steps', steps: STEPS, loginError: '.alert' },
    username: 'alice',
    password: PASSWORD,
    stepTimeoutMs: 5000,
    totalTimeoutMs: 20_000,
    evidenceDir,
    ...over,
  };
}

/** Everything a journey leaves behind, as one string, to scan for the password. */
function everything(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v instanceof Error ? { message: v.message, stack: v.stack, ...v } : v));
}

describe('declarative driver', { concurrency: 4 }, () => {
  test('approves with the accounts asked for (by number and by name), the redirect caught in the browser', async () => {
    const log: string[] = [];
    const r = await browser.journey(authUrl(), options({ accounts: { ids: ['40400422331144', 'Joint Account'] }, onStep: (d) => log.push(d) }));
    const cb = new URL(r.callbackUrl);
    assert.equal(cb.origin + cb.pathname, redirectUri);
    assert.equal(cb.searchParams.get('state'), 'st-123');
    assert.equal(cb.searchParams.get('code'), 'code-for-acc-002+acc-003--90');
    assert.deepEqual(r.selectedAccounts, ['acc-002', 'acc-003']);
    assert.deepEqual(r.offeredAccounts.map((a) => a.id), ['acc-001', 'acc-002', 'acc-003']);
    assert.match(r.offeredAccounts[1]!.label, /Rainy Day Saver/);
    assert.equal(r.loginOrigin, bank.url);
    assert.equal(r.debtorOffered, false);
    assert.ok(r.steps.some((s) => /marketing pop-up.*skipped/.test(s)), r.steps.join('\n'));
    assert.ok(r.steps.some((s) => s.includes('fill #pass with <secret>')));
    assert.ok(!everything({ r, log }).includes(PASSWORD));
    // The password went to the bank's sign-in endpoint, and the TPP side saw nothing.
    assert.ok(bank.seen.includes('POST /signin'));
  });

  test('the first offered account, whatever the page calls it, and a debtor chosen when the page offers one', async () => {
    const r = await browser.journey(authUrl({ debtor: '1' }), options({ accounts: { pick: 'first' }, debtor: 'Rainy Day Saver' }));
    assert.deepEqual(r.selectedAccounts, ['acc-001']);
    assert.equal(r.debtorOffered, true);
    assert.equal(r.debtorChosen, 'acc-002');
    assert.equal(new URL(r.callbackUrl).searchParams.get('code'), 'code-for-acc-001-acc-002-90');
  });

  test('all offered accounts when none are asked for; reject gives the bank\'s error back', async () => {
    const ok = await browser.journey(authUrl(), options());
    assert.deepEqual(ok.selectedAccounts, ['acc-001', 'acc-002', 'acc-003']);
    const no = await browser.journey(authUrl(), options({ reject: true }));
    const cb = new URL(no.callbackUrl);
    assert.equal(cb.searchParams.get('error'), 'access_denied');
    assert.equal(cb.searchParams.get('code'), null);
  });

  test('an account that is not offered fails its step, with a screenshot', async () => {
    await assert.rejects(browser.journey(authUrl(), options({ accounts: { ids: ['99999999'] } })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'step_failed');
      assert.match(e.message, /^step 7 \(tick accounts input\.acct\): account\(s\) "99999999" not offered/);
      assert.ok(e.evidence?.screenshot && existsSync(e.evidence.screenshot));
      return true;
    });
  });

  test('a wrong password is login_failed with the page\'s message, and the password is nowhere', async () => {
    await assert.rejects(browser.journey(authUrl(), options({ password: 'not-the-password-1' })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'login_failed');
      assert.equal(e.message, 'the bank refused the PSU login: Those details do not match our records.');
      assert.ok(!everything(e).includes('not-the-password-1'));
      return true;
    });
  });

  test('a selector that never comes is step_timeout at step N, with the URL and a screenshot', async () => {
    const steps: DriverStep[] = [...STEPS.slice(0, 3), { action: 'waitFor', selector: '#no-such-thing', name: 'strong auth' }];
    // Long enough that the first steps finish on a loaded machine; only the missing selector times out.
    await assert.rejects(browser.journey(authUrl(), options({ driver: { kind: 'steps', steps }, stepTimeoutMs: 4000 })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'step_timeout', e.message);
      assert.equal(e.message, 'step 4 (wait for #no-such-thing [strong auth]): selector "#no-such-thing" not found within 4000 ms');
      assert.equal(e.evidence?.step, 4);
      assert.match(e.evidence?.url ?? '', /\/signin\?/);
      const shot = e.evidence?.screenshot ?? '';
      assert.ok(existsSync(shot) && shot.startsWith(evidenceDir) && shot.endsWith('.png'));
      assert.equal(readFileSync(shot).subarray(1, 4).toString(), 'PNG');
      assert.ok(!shot.includes(PASSWORD) && !everything(e).includes(PASSWORD));
      return true;
    });
    for (const f of readdirSync(evidenceDir)) assert.ok(!f.includes(PASSWORD));
  });

  test('a journey that never comes back ends at the total time-out', async () => {
    const steps: DriverStep[] = [{ action: 'goto', url: `${bank.url}/slow` }];
    await assert.rejects(browser.journey(authUrl(), options({ driver: { kind: 'steps', steps }, totalTimeoutMs: 1500 })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'journey_timeout');
      assert.match(e.message, /did not come back to .* within 1500 ms/);
      return true;
    });
  });

  test('an error the bank shows after the decision ends the journey at once as consent_error, with the page\'s message', async () => {
    await assert.rejects(browser.journey(authUrl({ refuse: 'This consent has already expired.' }), options({ totalTimeoutMs: 20_000 })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'consent_error', e.message);
      assert.match(e.message, /after the PSU's decision: This consent has already expired\./);
      assert.ok(e.evidence?.screenshot, 'a screenshot of the page');
      return true;
    });
  });

  test('several journeys at once, one context each', async () => {
    const results = await Promise.all([
      browser.journey(authUrl(), options({ accounts: { pick: 'first' } })),
      browser.journey(authUrl(), options({ accounts: { ids: ['Rainy Day Saver'] } })),
      browser.journey(authUrl(), options({ accounts: { ids: ['acc-003'] } })),
    ]);
    assert.deepEqual(results.map((r) => r.selectedAccounts), [['acc-001'], ['acc-002'], ['acc-003']]);
  });

  test('a choice by position ignores how the step compares names (by: value, as the example profile writes it)', async () => {
    const byValue = STEPS.map((s): DriverStep => (s.action === 'tickAccounts' ? { ...s, by: 'value' } : s));
    const first = await browser.journey(authUrl(), options({ driver: { kind: 'steps', steps: byValue }, accounts: { pick: 'first' } }));
    assert.deepEqual(first.selectedAccounts, ['acc-001']);
    const two = await browser.journey(authUrl(), options({ driver: { kind: 'steps', steps: byValue }, accounts: { pick: 'first-n', n: 2 } }));
    assert.deepEqual(two.selectedAccounts, ['acc-001', 'acc-002']);
    assert.equal(new URL(two.callbackUrl).searchParams.get('code'), 'code-for-acc-001+acc-002--90');
    // A name is compared as `by` says: the checkbox's value, never its label.
    await assert.rejects(browser.journey(authUrl(), options({ driver: { kind: 'steps', steps: byValue }, accounts: { ids: ['Joint Account'] } })), /"Joint Account" not offered on the page \(compared by value\)/);
    const byIndex = STEPS.map((s): DriverStep => (s.action === 'tickAccounts' ? { ...s, by: 'index' } : s));
    const third = await browser.journey(authUrl(), options({ driver: { kind: 'steps', steps: byIndex }, accounts: { ids: ['3'] } }));
    assert.deepEqual(third.selectedAccounts, ['acc-003']);
  });

  test('asking for more accounts than the page offers fails the step, naming both numbers', async () => {
    await assert.rejects(browser.journey(authUrl(), options({ accounts: { pick: 'first-n', n: 5 } })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.match(e.message, /the first 5 account\(s\) were asked for, but the page offers 3/);
      return true;
    });
  });

  test('a wait outlives the page it started on: the element is found on the page a script navigated to, added later by script', async () => {
    const steps: DriverStep[] = [{ action: 'goto', url: `${bank.url}/hop${new URL(authUrl()).search}` }, { action: 'click', selector: '#arrived' }];
    const r = await browser.journey(authUrl(), options({ driver: { kind: 'steps', steps } }));
    assert.equal(new URL(r.callbackUrl).searchParams.get('code'), 'hopped');
  });

  test('a select without the option asked for fails its step, naming the value', async () => {
    const steps = STEPS.map((s): DriverStep => (s.action === 'select' ? { ...s, value: '7' } : s));
    await assert.rejects(browser.journey(authUrl(), options({ driver: { kind: 'steps', steps } })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'step_failed', e.message);
      assert.match(e.message, /^step 9 \(select "7" in #duration\): no option with value "7" in #duration$/);
      return true;
    });
  });

  test('a page whose script never yields is a step time-out with the URL, not a hang, and the browser serves the next journey', async () => {
    const steps: DriverStep[] = [{ action: 'goto', url: `${bank.url}/busy` }, { action: 'waitFor', selector: '#done' }];
    // The step's bound holds in Node: the page cannot answer, and the journey's own time-out is far off.
    // (3 s: the bank's first page, before the busy one, loaded in more than 1.5 s on a machine loaded four times over.)
    await assert.rejects(browser.journey(authUrl(), options({ driver: { kind: 'steps', steps }, stepTimeoutMs: 3000, totalTimeoutMs: 60_000 })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'step_timeout', e.message);
      assert.equal(e.message, 'step 2 (wait for #done): selector "#done" not found within 3000 ms: the page stopped answering (a script that never yields?)');
      assert.match(e.evidence?.url ?? '', /\/busy$/);
      // No screenshot is waited for: a page that cannot answer cannot render either.
      assert.equal(e.evidence?.screenshot, undefined);
      return true;
    });
    const next = await browser.journey(authUrl(), options());
    assert.equal(new URL(next.callbackUrl).searchParams.get('state'), 'st-123');
  });

  test('a page that answers its wait late, but answers, is a plain step time-out with a screenshot, not one that stopped answering', async () => {
    // The wait (3 s) runs out while the page's main thread is held (from 0.8 to 4.8 s after its
    // load); Node's bound (a second more) passes before the page answers, which it does within
    // moments after. (3 s, not less: the bank's first page, before the stalling one, loaded in more
    // than 1.5 s in one CI run.)
    const steps: DriverStep[] = [{ action: 'goto', url: `${bank.url}/stall` }, { action: 'waitFor', selector: '#done' }];
    await assert.rejects(browser.journey(authUrl(), options({ driver: { kind: 'steps', steps }, stepTimeoutMs: 3000, totalTimeoutMs: 60_000 })), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError);
      assert.equal(e.oauthError, 'step_timeout', e.message);
      assert.equal(e.message, 'step 2 (wait for #done): selector "#done" not found within 3000 ms');
      assert.ok(e.evidence?.screenshot && existsSync(e.evidence.screenshot), 'a page that answers can render: its screenshot is taken');
      return true;
    });
  });

  test('a process that exits without closing its own browser leaves neither the Chromium nor its profile folder', { skip: process.platform !== 'linux' }, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'obtpp-psu-exit-'));
    try {
      const module = new URL('../../src/psu/index.ts', import.meta.url).href;
      const { OBTPP_BROWSER_WS_ENDPOINT: _shared, ...launching } = process.env;
      // Its own Chromium (no shared endpoint), its profile in a temporary folder of this test's own.
      const child = spawnSync(process.execPath, ['--input-type=module', '-e',
        `const { PsuBrowser } = await import(${JSON.stringify(module)}); const b = new PsuBrowser(); await b.warm(); console.log('warm'); process.exit(0);`],
      { env: { ...launching, TMPDIR: tmp }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(child.stdout.trim(), 'warm', child.stderr);
      // Chromium's own temporary files (a killed one cannot remove them) went to a folder inside its
      // profile's, not to the process's temporary folder: read from a launch that stays up.
      const up = spawnSync(process.execPath, ['--input-type=module', '-e',
        `const { readdirSync, readFileSync } = await import('node:fs'); const { PsuBrowser } = await import(${JSON.stringify(module)}); const b = new PsuBrowser(); await b.warm();
         const tmpdirs = readdirSync('/proc').filter((d) => /^\\d+$/.test(d)).flatMap((d) => { try { return readFileSync('/proc/' + d + '/cmdline', 'utf8').includes('--user-data-dir=' + ${JSON.stringify(tmp)}) ? readFileSync('/proc/' + d + '/environ', 'utf8').split('\\0').filter((v) => v.startsWith('TMPDIR=')) : []; } catch { return []; } });
         console.log(JSON.stringify([...new Set(tmpdirs)])); await b.close();`],
      { env: { ...launching, TMPDIR: tmp }, encoding: 'utf8', timeout: 60_000 });
      const tmpdirs: string[] = JSON.parse(up.stdout.trim() || '[]');
      assert.equal(tmpdirs.length, 1, `one TMPDIR among the Chromium's processes: ${up.stdout}${up.stderr}`);
      assert.match(tmpdirs[0]!, new RegExp(`^TMPDIR=${tmp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/obtpp-chromium-[^/]+/tmp$`));
      assert.deepEqual(readdirSync(tmp), [], 'the profile folder went with the process');
      const left = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(`--user-data-dir=${tmp}`);
        } catch {
          return false;
        }
      });
      assert.deepEqual(left, [], 'no Chromium of that process is left');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('a browser that stops answering (SIGSTOP) ends the journey at its time-out, before any page loads', { skip: process.platform !== 'linux' }, async () => {
    // Chromium main processes under this process (perhaps behind a launcher script): a command
    // line that names Chromium and no --type, whose parent is no Chromium.
    const browsers = (): number[] => {
      const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
        try {
          const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
          return [{ pid: Number(d), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmd: readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0') }];
        } catch {
          return [];
        }
      });
      const under = new Set([process.pid]);
      for (let grew = true; grew;) {
        grew = false;
        for (const p of procs) if (!under.has(p.pid) && under.has(p.ppid)) (under.add(p.pid), (grew = true));
      }
      const chromium = procs.filter((p) => p.pid !== process.pid && under.has(p.pid) && /chrom/i.test(p.cmd[0] ?? '') && !p.cmd.some((a) => a.startsWith('--type=')));
      return chromium.filter((p) => !chromium.some((q) => q.pid === p.ppid)).map((p) => p.pid);
    };
    const before = new Set(browsers());
    // Its own Chromium, not the test run's shared one (test/global-setup.ts).
    const { OBTPP_BROWSER_WS_ENDPOINT: _shared, ...launching } = process.env;
    const own = new PsuBrowser({ env: launching });
    await own.warm();
    const mine = browsers().filter((p) => !before.has(p));
    let pid = 0;
    try {
      assert.equal(mine.length, 1, `one Chromium started for this browser: ${mine.join(', ')}`);
      pid = mine[0]!;
      process.kill(pid, 'SIGSTOP');
      await assert.rejects(own.journey(authUrl(), options({ totalTimeoutMs: 1500 })), (e: unknown) => {
        assert.ok(e instanceof AuthorisationError);
        assert.equal(e.oauthError, 'journey_timeout', e.message);
        assert.match(e.message, /within 1500 ms \(last: preparing the browser page\)$/);
        return true;
      });
    } finally {
      if (pid) process.kill(pid, 'SIGCONT');
      await own.close();
    }
  });

  test('an optional step whose selector never comes ends when the page shows what a later step needs', async () => {
    const steps: DriverStep[] = [
      ...STEPS.slice(0, 3),
      { action: 'fill', selector: '#otp', value: '123456', optional: true, name: 'passcode' },
      { action: 'click', selector: '#otp-go', waitForNavigation: true, optional: true, name: 'submit passcode' },
      ...STEPS.slice(3),
    ];
    // Long step time-outs: a fixed wait per optional step would show as a journey time-out here.
    const r = await browser.journey(authUrl(), options({ driver: { kind: 'steps', steps }, stepTimeoutMs: 8000, totalTimeoutMs: 12_000 }));
    assert.ok(r.steps.some((s) => /\[passcode\] \(optional\): skipped, the page shows #cookies-ok instead/.test(s)), r.steps.join('\n'));
    assert.ok(r.steps.some((s) => /\[submit passcode\] \(optional\): skipped, the page shows #cookies-ok instead/.test(s)), r.steps.join('\n'));
    assert.ok(r.steps.some((s) => /\[marketing pop-up\] \(optional\): skipped, the page shows #consent instead/.test(s)), r.steps.join('\n'));
    assert.ok(r.steps.some((s) => /click #cookies-ok \[cookie banner\] \(optional\)$/.test(s)), 'an optional step whose selector is there runs');
  });
});

describe('manual mode', { concurrency: 2 }, () => {
  test('prints the URL and waits for the redirect on a loopback server', async () => {
    const port = await closedPort();
    const uri = `http://127.0.0.1:${port}/cb`;
    const lines: string[] = [];
    const journey = browser.journey('https://bank.example/authorize?x=1', {
      ...options({ redirectUri: uri, driver: { kind: 'manual' }, totalTimeoutMs: 10_000 }),
      log: (l) => lines.push(l),
    });
    // The PSU's browser, played by a plain request, arrives at the redirect URI.
    let answered = false;
    for (let i = 0; i < 50 && !answered; i++) {
      try {
        const res = await fetch(`${uri}?code=abc&state=xyz`);
        answered = res.status === 200;
        await res.text();
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const r = await journey;
    assert.equal(r.callbackUrl, `${uri}?code=abc&state=xyz`);
    assert.ok(lines.some((l) => l.includes('https://bank.example/authorize?x=1')));
    assert.ok(!lines.join('\n').includes(PASSWORD));
  });

  test('an answer in the fragment (the hybrid flow) reaches obtpp: the page sends it back to the loopback server', async () => {
    const port = await closedPort();
    const uri = `http://127.0.0.1:${port}/cb`;
    const journey = browser.journey('https://bank.example/authorize?x=1', { ...options({ redirectUri: uri, driver: { kind: 'manual' }, totalTimeoutMs: 10_000 }), log: () => undefined });
    // The PSU's browser arrives with the answer in the fragment, which never goes on the wire: the page's script sends it.
    let page: string | undefined;
    for (let i = 0; i < 50 && page === undefined; i++) {
      try {
        page = await (await fetch(uri)).text();
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    assert.match(page!, /location\.replace\(location\.pathname \+ '\?obtpp-fragment=' \+ encodeURIComponent\(location\.hash\.slice\(1\)\)\)/);
    // What that script does, done here: the fragment comes back on the query.
    await (await fetch(`${uri}?obtpp-fragment=${encodeURIComponent('code=abc&id_token=x.y.z&state=xyz')}`)).text();
    assert.equal((await journey).callbackUrl, `${uri}#code=abc&id_token=x.y.z&state=xyz`);
  });

  test('gives up after the total time-out', async () => {
    const uri = `http://127.0.0.1:${await closedPort()}/cb`;
    await assert.rejects(browser.journey('https://bank.example/a', { ...options({ redirectUri: uri, driver: { kind: 'manual' }, totalTimeoutMs: 300 }), log: () => undefined }), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError && e.oauthError === 'journey_timeout');
      return true;
    });
  });
});

describe('finding Chromium', () => {
  test('PUPPETEER_EXECUTABLE_PATH wins; a wrong one is exit 3 saying what to install', () => {
    assert.equal(PsuBrowser.executablePath({ PUPPETEER_EXECUTABLE_PATH: '/usr/bin/chromium' }), '/usr/bin/chromium');
    assert.throws(() => PsuBrowser.executablePath({ PUPPETEER_EXECUTABLE_PATH: '/nonexistent/chrome' }), (e: unknown) => {
      assert.ok(e instanceof BrowserUnavailableError);
      assert.equal(e.exitCode, ExitCode.cannotRun);
      assert.match(e.hint ?? '', /apt-get install -y chromium|PUPPETEER_EXECUTABLE_PATH/);
      return true;
    });
  });

  test('puppeteer\'s own download is preferred to the system\'s; a headless run prefers a headless shell', () => {
    const cache = mkdtempSync(join(tmpdir(), 'obtpp-pptr-cache-'));
    // Executable files standing in for the downloads.
    const fake = (parts: string[]) => {
      const file = join(cache, ...parts);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      return file;
    };
    try {
      const chrome = fake(['chrome', 'linux-156.0.8078.47', 'chrome-linux64', 'chrome']);
      assert.equal(PsuBrowser.executablePath({ PUPPETEER_CACHE_DIR: cache, PATH: '' }, { headless: false }), chrome);
      const shell = fake(['chrome-headless-shell', 'linux-156.0.8078.47', 'chrome-headless-shell-linux64', 'chrome-headless-shell']);
      assert.equal(PsuBrowser.executablePath({ PUPPETEER_CACHE_DIR: cache, PATH: '' }), shell);
      // A visible browser cannot be the headless shell.
      assert.equal(PsuBrowser.executablePath({ PUPPETEER_CACHE_DIR: cache, PATH: '' }, { headless: false }), chrome);
      const onPath = fake(['bin', 'chromium-headless-shell']);
      const empty = join(cache, 'empty');
      mkdirSync(empty);
      const found = PsuBrowser.executablePath({ PUPPETEER_CACHE_DIR: empty, PATH: dirname(onPath) });
      // The system's own headless shell (/usr/bin) comes before one on PATH.
      assert.ok(found === onPath || found === '/usr/bin/chromium-headless-shell', found);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  test('a client of a shared browser attaches only to the targets of the contexts it made: not to others\' pages, made before it connected or after', async () => {
    const { default: puppeteer } = await import('puppeteer');
    const { CHROMIUM_ARGS } = await import('../../src/psu/index.ts');
    const { ownContextsOnly } = await import('../../src/psu/shared-browser.ts');
    const { launchInFolder } = await import('../helpers/own-chromium.ts');
    const owner = await launchInFolder({ executablePath: PsuBrowser.executablePath()!, headless: true, args: [...CHROMIUM_ARGS, '--headless'] });
    try {
      const pageUrls = (b: import('puppeteer').Browser) => b.targets().filter((t) => t.type() === 'page').map((t) => t.url()).sort();
      const earlier = await (await owner.createBrowserContext()).newPage();
      await earlier.goto('data:text/html,earlier');
      const { targetFilter, track } = ownContextsOnly();
      const client = track(await puppeteer.connect({ browserWSEndpoint: owner.wsEndpoint(), targetFilter }));
      try {
        const later = await (await owner.createBrowserContext()).newPage();
        await later.goto('data:text/html,later');
        const mine = await (await client.createBrowserContext()).newPage();
        await mine.goto('data:text/html,mine');
        assert.deepEqual(pageUrls(client), ['data:text/html,mine'], 'only its own page');
        // Without the filter, puppeteer attaches to every page of the browser.
        const all = await puppeteer.connect({ browserWSEndpoint: owner.wsEndpoint() });
        try {
          assert.ok(pageUrls(all).includes('data:text/html,earlier') && pageUrls(all).includes('data:text/html,later'), pageUrls(all).join(' '));
        } finally {
          await all.disconnect();
        }
      } finally {
        await client.disconnect();
      }
    } finally {
      await owner.close();
    }
  });

  test('OBTPP_BROWSER_WS_ENDPOINT: journeys run in that browser, in contexts of their own, and close() leaves it running with none of them', async () => {
    const { CHROMIUM_ARGS } = await import('../../src/psu/index.ts');
    const { launchInFolder } = await import('../helpers/own-chromium.ts');
    const owner = await launchInFolder({ executablePath: PsuBrowser.executablePath()!, headless: true, args: [...CHROMIUM_ARGS, '--headless'] });
    // Every context of the browser, whoever made it (the owner's object knows only its own).
    const cdp = await owner.target().createCDPSession();
    const contexts = async () => (await cdp.send('Target.getBrowserContexts')).browserContextIds.length;
    try {
      // Another user of the browser has a page whose script never yields: not obtpp's to wait for.
      const busy = await owner.createBrowserContext();
      const stuck = await busy.newPage();
      void stuck.goto('data:text/html,<script>for(;;){}</script>').catch(() => undefined);
      const before = await contexts();
      const { OBTPP_BROWSER_WS_ENDPOINT: _shared, ...rest } = process.env;
      const b = new PsuBrowser({ env: { ...rest, OBTPP_BROWSER_WS_ENDPOINT: owner.wsEndpoint() } });
      let bound: NodeJS.Timeout | undefined;
      const [one, two] = await Promise.race([
        Promise.all([b.journey(authUrl(), options()), b.journey(authUrl(), options())]),
        new Promise<never>((_, reject) => (bound = setTimeout(() => reject(new Error('the journeys waited on another user\'s page')), 60_000))),
      ]).finally(() => clearTimeout(bound));
      for (const r of [one, two]) assert.equal(new URL(r.callbackUrl).searchParams.get('state'), 'st-123');
      assert.ok(await contexts() > before, 'the journeys opened their contexts in the running browser');
      await b.close();
      assert.ok(owner.connected, 'the running browser is its owner\'s: still up');
      // The contexts go as CDP reports them gone (asynchronously): asked again until they have.
      for (let i = 0; i < 50 && await contexts() !== before; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await contexts(), before, 'no context of the closed PsuBrowser is left');
      // A process that ends without closing (killed, crashed) leaves none either: Chromium disposes
      // of the contexts of a connection that goes.
      const module = new URL('../../src/psu/index.ts', import.meta.url).href;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e',
        `const { PsuBrowser } = await import(${JSON.stringify(module)}); const b = new PsuBrowser(); await b.warm(); await new Promise((r) => setTimeout(r, 200)); console.log('warm'); process.exit(0);`],
      { env: { ...rest, OBTPP_BROWSER_WS_ENDPOINT: owner.wsEndpoint() }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(child.stdout.trim(), 'warm', child.stderr);
      for (let i = 0; i < 50 && await contexts() !== before; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await contexts(), before, 'the contexts of a process that exited without closing are gone');
      // A bank on a private CA needs its trust as a launch switch: such a journey launches its own browser.
      const unreachable = new PsuBrowser({ env: { ...rest, OBTPP_BROWSER_WS_ENDPOINT: `ws://127.0.0.1:${await closedPort()}/devtools/browser/x` } });
      try {
        await assert.rejects(unreachable.journey(authUrl(), options()), (e: unknown) => {
          assert.ok(e instanceof BrowserUnavailableError);
          assert.equal(e.exitCode, 3);
          assert.match(e.message, /^the browser at OBTPP_BROWSER_WS_ENDPOINT \(ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/x\) cannot be reached/);
          assert.match(e.hint ?? '', /unset OBTPP_BROWSER_WS_ENDPOINT/);
          return true;
        });
      } finally {
        await unreachable.close();
      }
    } finally {
      await owner.close();
    }
  });

  test('a browser that cannot start is BrowserUnavailableError (exit 3)', async () => {
    const b = new PsuBrowser({ env: { PUPPETEER_EXECUTABLE_PATH: '/bin/false' } });
    try {
      await assert.rejects(b.journey(authUrl(), options()), (e: unknown) => {
        assert.ok(e instanceof BrowserUnavailableError);
        assert.equal(e.exitCode, 3);
        return true;
      });
    } finally {
      await b.close();
    }
  });
});
