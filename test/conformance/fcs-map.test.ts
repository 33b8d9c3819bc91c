// The FCS v3.1 map is the honest ledger of which official conformance-suite test each scenario
// stands for: every @fcs: tag names a real FCS id, docs/fcs-3.1.md is exactly the generated map
// (so it cannot go stale: regenerate it with `node scripts/fcs-map.ts > docs/fcs-3.1.md`), and every
// id of the three v3.1 manifests is either covered by a scenario or listed as not covered, with
// why. The manifests are read where they lie (../shared/reference/obie-fcs beside the checkout, or
// $OBTPP_FCS_DIR); without them the map cannot be checked, and the tests say so and skip.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/program.ts';
import { buildFcsMap, fcsDir, fcsMap, readFcsScripts, renderFcsMarkdown, scenariosOf, FCS_NOT_APPLICABLE, NO_SCENARIO_YET } from '../../src/conformance/fcs-map.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = fcsDir(root, process.env, root);
const skip = existsSync(join(dir, 'manifests', 'ob_3.1_cbpii_fca.json')) ? false : `the FCS manifests are not at ${dir} (set OBTPP_FCS_DIR, or check out ../shared beside the project)`;

/** The CLI in-process (the thin shell over the same functions), with its output collected. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [out, err] = [new PassThrough(), new PassThrough()];
  const chunks = { stdout: '', stderr: '' };
  out.on('data', (c) => (chunks.stdout += c));
  err.on('data', (c) => (chunks.stderr += c));
  const code = await runCli(args, { stdout: out, stderr: err, env: { OBTPP_FCS_DIR: dir }, cwd: root, color: false, interactive: false, exitCode: 0 });
  return { code, ...chunks };
}

describe('the FCS v3.1 map', { skip }, () => {
  test('the four v3.1 manifests hold 154 scripts under 153 distinct ids (OB-301-CBPII-000009 names two; 14 are VRP)', async () => {
    const scripts = await readFcsScripts(dir);
    assert.equal(scripts.length, 154);
    assert.equal(new Set(scripts.map((s) => s.id)).size, 153);
    assert.equal(scripts.filter((s) => s.id === 'OB-301-CBPII-000009').length, 2);
  });

  test('every @fcs: tag of the features names an id of the manifests (and a wrong one is caught)', async () => {
    const map = await fcsMap(root, dir);
    assert.deepEqual(map.unknownTags, []);
    // The check can fail: a tag naming no FCS id is reported, with its scenario.
    const scripts = await readFcsScripts(dir);
    const bad = buildFcsMap(scripts, scenariosOf('features/obie/x.feature', 'Feature: x\n  @fcs:OB-301-CBPII-999999 @fcs:OB-301-CBPII-000001\n  Scenario: s\n    Given a\n'));
    assert.deepEqual(bad.unknownTags, [{ tag: '@fcs:OB-301-CBPII-999999', feature: 'features/obie/x.feature', scenario: 's' }]);
    assert.equal(bad.entries.find((e) => e.id === 'OB-301-CBPII-000001')!.covers.length, 1);
  });

  test('docs/fcs-3.1.md is the generated map, word for word', async () => {
    const page = readFileSync(join(root, 'docs', 'fcs-3.1.md'), 'utf8');
    assert.ok(page === renderFcsMarkdown(await fcsMap(root, dir)), 'docs/fcs-3.1.md is stale: run `node scripts/fcs-map.ts > docs/fcs-3.1.md`');
  });

  test('the page is the ledger: each manifest id is covered by a scenario, or listed as not covered with its reason', async () => {
    const page = readFileSync(join(root, 'docs', 'fcs-3.1.md'), 'utf8');
    const [, covered = '', uncovered = ''] = page.split(/^## (?:Covered|Not covered)$/m);
    const rows = (section: string) => new Map([...section.matchAll(/^\| (OB-[\w-]+) \| (.*)$/gm)].map((m) => [m[1]!, m[2]!.split(' | ')]));
    const [yes, no] = [rows(covered), rows(uncovered)];
    // The ids come from the manifests themselves, not from the map under test.
    const ids = new Set(JSON.parse(readFileSync(join(dir, 'manifests', 'ob_3.1_cbpii_fca.json'), 'utf8')).scripts.map((s: { id: string }) => s.id) as string[]);
    for (const file of ['ob_3.1_accounts_transactions_fca.json', 'ob_3.1_payment_fca.json', 'ob_3.1_variable_recurring_payments.json']) {
      for (const s of JSON.parse(readFileSync(join(dir, 'manifests', file), 'utf8')).scripts) ids.add(s.id);
    }
    const unaccounted = [...ids].filter((id) => {
      if (yes.has(id)) return !/features\/\S+\.feature/.test(yes.get(id)![1] ?? '');
      const reason = no.get(id)?.[1]?.trim();
      return !reason;
    });
    assert.deepEqual(unaccounted, [], 'ids with neither a covering scenario nor a reason on docs/fcs-3.1.md');
    assert.equal(yes.size + no.size, 153);
    // Every id has its scenario: a manifest id without one fails here (the page lists it as not covered).
    assert.deepEqual([...ids].filter((id) => !yes.has(id) && !FCS_NOT_APPLICABLE[id]), [], 'FCS v3.1 ids with no scenario (and no reason the standard gives)');
    assert.ok([...no.values()].every((cells) => cells[1]?.trim() === NO_SCENARIO_YET || cells[1]!.trim().length > 10), 'a reason says why');
  });

  test('obtpp rules --fcs 3.1 prints the same map (--json); an unknown version or no manifests is a usage error', async () => {
    const json = await cli(['rules', '--fcs', '3.1', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const map = JSON.parse(json.stdout);
    assert.equal(map.ids, 153);
    assert.deepEqual(map, JSON.parse(JSON.stringify(await fcsMap(root, dir))));
    const text = await cli(['rules', '--fcs', '3.1']);
    assert.match(text.stdout, /^OB-301-CBPII-000003 .*\n {2}covered by features\/obie\/uk-funds\.feature UKCOF-01: /m);
    assert.equal((await cli(['rules', '--fcs', '5.0'])).code, 2);
    const none = await cli(['rules', '--fcs', '3.1', '--manifests', join(root, 'no-such-fcs-dir')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /cannot read the FCS 3\.1 manifest .*no-such-fcs-dir/);
    const rules = await cli(['rules']);
    assert.match(rules.stdout, /^UKCOF-01 +\d+ scenarios? +features\/obie\/uk-funds\.feature$/m);
  });
});

describe('the FCS v4.0 map', { skip }, () => {
  test('every OB-4… tag names a v4.0 test; docs/fcs-4.0.md is the generated map; every VRP v4.0 test has its scenario', async () => {
    const map = await fcsMap(root, dir, '4.0');
    assert.deepEqual(map.unknownTags, []);
    const page = readFileSync(join(root, 'docs', 'fcs-4.0.md'), 'utf8');
    assert.ok(page === renderFcsMarkdown(map), 'docs/fcs-4.0.md is stale: run `node scripts/fcs-map.ts 4.0 > docs/fcs-4.0.md`');
    // The ids from the VRP manifest itself: the VRP scenarios run at v4.0 too (@uk-4.0) and stand for each.
    const vrp = JSON.parse(readFileSync(join(dir, 'manifests', 'ob_4.0_variable_recurring_payments.json'), 'utf8')).scripts.map((s: { id: string }) => s.id) as string[];
    assert.equal(vrp.length, 11);
    assert.deepEqual(vrp.filter((id) => !map.entries.find((e) => e.id === id)?.covers.length), []);
    // The payment scenarios run at v4.0 too (uk-payments.feature is @uk-4.0): every payment v4.0 test has its scenario.
    const pis = JSON.parse(readFileSync(join(dir, 'manifests', 'ob_4.0_payment_fca.json'), 'utf8')).scripts.map((s: { id: string }) => s.id) as string[];
    assert.equal(pis.length, 29);
    assert.deepEqual(pis.filter((id) => !map.entries.find((e) => e.id === id)?.covers.length), []);
    // A scenario that runs only at v3.1.11 (@uk-3.1 alone) covers no v4.0 test, even one whose id the v4.0 manifest reuses.
    // Every scenario that covers a v4.0 test runs at v4.0 (its feature is tagged @uk-4.0), even where the v4.0 manifest reuses a v3.1 id.
    for (const f of new Set(map.entries.flatMap((e) => e.covers.map((c) => c.feature)))) assert.match(readFileSync(join(root, f), 'utf8'), /@uk-4\.0\b/, f);
    const json = await cli(['rules', '--fcs', '4.0', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).covered, map.covered);
  });
});
