// UK Read/Write v3.1.11's account information in a conformance run: every test of the FCS v3.1
// accounts-and-transactions manifest has a scenario carrying its id (but the one the standard makes
// inapplicable, with its reason in the feature), and a run of the sandbox in the UK layout, scoped
// to those scenarios, passes every UKAIS rule. (Each UKAIS fault is caught by its rule in
// conform.test.ts, which runs the sandbox's faults in the UK layout when their rule is a UK one.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runObtpp } from '../helpers/obtpp.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MANIFEST = join(root, '..', 'shared', 'reference', 'obie-fcs', 'manifests', 'ob_3.1_accounts_transactions_fca.json');
const FEATURE = join(root, 'features', 'obie', 'uk-accounts.feature');
/** FCS tests that call a path v3.1.11 does not define: the feature says why. */
const INAPPLICABLE = ['OB-301-PRO-103403'];

test('every FCS v3.1 accounts-and-transactions test has an @fcs-tagged scenario, or a stated reason', { skip: existsSync(MANIFEST) ? false : 'FCS manifests not found' }, () => {
  const ids: string[] = JSON.parse(readFileSync(MANIFEST, 'utf8')).scripts.map((s: { id: string }) => s.id);
  assert.equal(new Set(ids).size, 95);
  const feature = readFileSync(FEATURE, 'utf8');
  const tagged = new Set([...feature.matchAll(/@fcs:(OB-[\w-]+)/g)].map((m) => m[1]!));
  assert.deepEqual(ids.filter((id) => !tagged.has(id) && !INAPPLICABLE.includes(id)), [], 'manifest ids without a scenario');
  // The feature runs at v4.0 too: its OB-400- tags are the v4.0 manifest's (test/conformance/uk-v4-ais.test.ts).
  assert.deepEqual([...tagged].filter((id) => !ids.includes(id) && !id.startsWith('OB-400-')), [], 'tags naming no test of the manifest');
  for (const id of INAPPLICABLE) {
    assert.ok(!tagged.has(id), `${id} is not claimed`);
    assert.match(feature, new RegExp(`${id} is not covered: .+`), `${id}'s reason is in the feature`);
  }
});

test('conform --standard uk-3.1 on @uk-3.1 and @ais: every UKAIS rule passes against the sandbox, every scenario judged', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-uk-ais-'));
  try {
    const code = (await runObtpp(['conform', '--standard', 'uk-3.1', '--tags', '@uk-3.1 and @ais', '--report-dir', join(dir, 'r'), '--json'], { cwd: dir, timeoutMs: 300_000 })).code;
    const summary = JSON.parse(await readFile(join(dir, 'r', 'summary.json'), 'utf8'));
    const rules = summary.variants[0].rules.filter((r: any) => r.id.startsWith('UKAIS-'));
    assert.equal(code, 0, JSON.stringify(rules.filter((r: any) => r.status !== 'passed').map((r: any) => [r.id, r.status, r.failures?.[0]?.message])));
    assert.deepEqual(rules.map((r: any) => r.id).sort(), ['UKAIS-01', 'UKAIS-02', 'UKAIS-03', 'UKAIS-04', 'UKAIS-05', 'UKAIS-10', 'UKAIS-11', 'UKAIS-12', 'UKAIS-13', 'UKAIS-14']);
    for (const r of rules) {
      assert.equal(r.status, 'passed', r.id);
      assert.equal(r.counts.notJudged ?? 0, 0, r.id);
    }
    const scenarios = rules.reduce((n: number, r: any) => n + (r.counts.passed ?? 0), 0);
    assert.ok(scenarios >= 100, `${scenarios} scenarios passed`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
