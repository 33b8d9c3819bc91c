// The FCS maps are the honest ledger of which official conformance-suite test each scenario stands
// for, and they prove what they claim: each id's assertions are read from the suite's manifests and
// assertion definitions as kinds (status set, x-fapi-interaction-id and its echo, Content-Type,
// body fields and error codes, schema, signature, what the request leaves out), each judging step
// declares the kinds it judges, and a scenario tagged @fcs: whose steps do not judge them all fails
// here (it must be @fcs-partial:, listed with what it misses). docs/fcs-3.1.md and docs/fcs-4.0.md
// are exactly the generated maps. The manifests are read where they lie (../shared/reference/obie-fcs
// beside the checkout, or $OBTPP_FCS_DIR); without them the maps cannot be checked, and the tests
// say so and skip. The step definitions are read from dist/ (npm run build).
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/program.ts';
import {
  assertionKinds, buildFcsMap, fcsDir, fcsMap, readFcsAssertions, readFcsScripts, renderFcsMarkdown, scenariosOf, stepJudges,
  FCS_NOT_APPLICABLE, type FcsMap, type FcsVersion, type JudgesOf,
} from '../../src/conformance/fcs-map.ts';

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

const maps = new Map<FcsVersion, FcsMap>();
let judgesOf: JudgesOf | undefined;

describe('the FCS maps', { skip }, () => {
  before(async () => {
    judgesOf = await stepJudges(root);
    for (const v of ['3.1', '4.0'] as const) maps.set(v, await fcsMap(root, dir, v));
  });

  test('the v3.1 manifests hold 154 scripts under 153 ids (OB-301-CBPII-000009 names two), the v4.0 ones 149 under 148', async () => {
    const v3 = await readFcsScripts(dir, '3.1');
    assert.equal(v3.length, 154);
    assert.equal(new Set(v3.map((s) => s.id)).size, 153);
    assert.equal(v3.filter((s) => s.id === 'OB-301-CBPII-000009').length, 2);
    const v4 = await readFcsScripts(dir, '4.0');
    assert.equal(v4.length, 149);
    assert.equal(new Set(v4.map((s) => s.id)).size, 148);
  });

  test('each test\'s assertions, read from the manifests and assertions.json, are the suite\'s (the defects of issue 39)', async () => {
    const assertions = await readFcsAssertions(dir);
    const kinds = async (version: FcsVersion, id: string) => {
      const scripts = (await readFcsScripts(dir, version)).filter((s) => s.id === id);
      return scripts.map((s) => assertionKinds(s, assertions));
    };
    // A missing permission on balances: the suite asserts 400 or 403 (not 401).
    assert.deepEqual(await kinds('3.1', 'OB-301-BAL-101400'), [['status:400|403']]);
    assert.deepEqual(await kinds('4.0', 'OB-400-BAL-101400'), [['status:400|403']]);
    // The missing claim is iss, and the codes at v4.0 are read as their v3.1.11 pairs (U016–U018).
    for (const [v, id] of [['3.1', 'OB-301-DOP-100110'], ['4.0', 'OB-400-DOP-100110']] as const) {
      assert.deepEqual(await kinds(v, id), [['error-code:UK.OBIE.Signature.InvalidClaim|UK.OBIE.Signature.Malformed|UK.OBIE.Signature.MissingClaim', 'jws-without:iss', 'status:400']]);
    }
    // The VRP reads verify the answer's signature, with Content-Type and the x-fapi-interaction-id.
    for (const id of ['OB-301-VRP-100610', 'OB-301-VRP-10670', 'OB-301-VRP-101100', 'OB-301-VRP-101200']) {
      const [k] = await kinds('3.1', id);
      for (const want of ['signature', 'content-type', 'interaction-id', 'schema', 'status:200']) assert.ok(k!.includes(want), `${id}: ${want}`);
    }
    // The deleted consent's 400s judge their body; the second DELETE may be 400 or 204.
    assert.deepEqual(await kinds('3.1', 'OB-301-VRP-102150'), [['schema', 'status:400']]);
    assert.deepEqual(await kinds('3.1', 'OB-301-VRP-102200'), [['schema', 'status:204|400']]);
    // x-fapi-financial-id left out of the request.
    assert.ok((await kinds('3.1', 'OB-313-ACC-000100'))[0]!.includes('sent-without:x-fapi-financial-id'));
    assert.ok((await kinds('4.0', 'OB-313-ACC-000100'))[0]!.includes('sent-without:x-fapi-financial-id'));
    // A v4.0 status is read as its v3.1.11 name.
    assert.ok((await kinds('4.0', 'OB-400-DOP-100400'))[0]!.includes('field:Data.Status=Authorised'));
    // The suite's asserts_last_if_all, as one conditional kind.
    assert.deepEqual((await kinds('3.1', 'OB-301-DOP-1015001'))[0]!.filter((k) => k.startsWith('if(')), ['if(field:Data.Initiation.NumberOfPayments & field:Data.Initiation.FinalPaymentDateTime) status:403']);
  });

  test('every @fcs: scenario judges every assertion of its test: no tag claims more than its steps judge', () => {
    for (const map of maps.values()) {
      assert.equal(map.judgesChecked, true, 'the step definitions were read (dist/ built)');
      assert.deepEqual(map.overclaims, [], `v${map.version}: @fcs: scenarios that do not judge all of their test`);
      assert.deepEqual(map.unknownTags, [], `v${map.version}: tags naming no FCS id`);
      assert.deepEqual(map.inapplicableTags, [], `v${map.version}: tags on tests the suite makes inapplicable`);
      assert.deepEqual(map.undefinedSteps, [], `v${map.version}: steps of tagged scenarios with no definition`);
    }
  });

  test('the check can fail: a scenario whose steps miss a kind is an overclaim, and @fcs-partial: lists what it misses', async () => {
    const scripts = await readFcsScripts(dir, '3.1');
    const assertions = await readFcsAssertions(dir);
    const text = [
      'Feature: x',
      '  @fcs:OB-301-BAL-101400',
      '  Scenario: the old judgement',
      '    When the AISP requests the balances of the first account under the "uk basic" consent',
      '    Then the bank refuses the request with 401 or 403',
      '  @fcs-partial:OB-301-DOP-100400',
      '  Scenario: a read judged on its status only',
      '    When the PISP reads the domestic payment consent',
      '    Then the bank answers 200 OK',
      '  @fcs:OB-301-VRP-100100',
      '  Scenario: a test below v3.1.11',
      '    Then the bank answers 201 Created',
      '  @fcs:OB-301-CBPII-000001',
      '  Scenario: a step nobody defined',
      '    Then the moon is made of cheese',
    ].join('\n') + '\n';
    const map = buildFcsMap(scripts, scenariosOf('features/obie/x.feature', text), '3.1', { assertions, judgesOf: judgesOf! });
    assert.deepEqual(map.overclaims.map((o) => [o.id, o.missing]).slice(0, 1), [['OB-301-BAL-101400', ['status:400|403']]]);
    const partial = map.entries.find((e) => e.id === 'OB-301-DOP-100400')!;
    assert.equal(partial.status, 'partial');
    assert.deepEqual(partial.partial[0]!.missing, ['field:Data.Status=Authorised', 'interaction-id', 'schema', 'signature']);
    assert.deepEqual(map.inapplicableTags.map((t) => t.tag), ['@fcs:OB-301-VRP-100100']);
    assert.deepEqual(map.undefinedSteps.map((u) => u.step), ['the moon is made of cheese']);
  });

  test('a feature text is parsed once per process: the same text gives the same frozen scenarios, another text its own', () => {
    const text = 'Feature: x\n  @fcs:OB-301-ACC-100100\n  Scenario: one\n    Then the bank answers 200 OK\n';
    const first = scenariosOf('features/obie/memo.feature', text);
    assert.equal(scenariosOf('features/obie/memo.feature', text), first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]) && Object.isFrozen(first[0]!.tags));
    assert.throws(() => (first[0]!.tags as string[]).push('@mine'));
    const other = scenariosOf('features/obie/memo.feature', text.replace('one', 'two'));
    assert.notEqual(other, first);
    assert.equal(other[0]!.scenario, 'two');
  });

  test('every id is covered, or not applicable with the suite\'s own reason; one scenario or Examples row per id', () => {
    for (const map of maps.values()) {
      const byStatus = (s: string) => map.entries.filter((e) => e.status === s).map((e) => e.id);
      assert.deepEqual(byStatus('not-covered'), [], `v${map.version}: ids without a scenario`);
      assert.deepEqual(byStatus('partial'), [], `v${map.version}: ids only partly judged`);
      for (const e of map.entries.filter((x) => x.status === 'not-applicable')) assert.ok((e.reason ?? '').length > 40, `${e.id} says why`);
      // A scenario (a pickle: one Examples row) stands for one test of a version.
      const perScenario = new Map<string, string[]>();
      for (const e of map.entries) for (const c of e.covers) perScenario.set(`${c.feature}: ${c.scenario}`, [...(perScenario.get(`${c.feature}: ${c.scenario}`) ?? []), e.id]);
      assert.deepEqual([...perScenario].filter(([, ids]) => ids.length > 1), [], `v${map.version}: scenarios standing for more than one test`);
    }
    const v3 = maps.get('3.1')!;
    const v4 = maps.get('4.0')!;
    assert.deepEqual(v3.entries.filter((e) => e.status === 'not-applicable').map((e) => e.id).sort(),
      ['OB-301-DOP-1015002', 'OB-301-PRO-103403', 'OB-301-VRP-100100', 'OB-301-VRP-100600', 'OB-301-VRP-100700']);
    assert.match(v3.entries.find((e) => e.id === 'OB-301-VRP-100600')!.reason!, /apiVersion <3\.1\.11/);
    assert.deepEqual(v4.entries.filter((e) => e.status === 'not-applicable').map((e) => e.id).sort(), ['OB-400-DOP-1015002', 'OB-400-PRO-103403']);
    assert.ok(FCS_NOT_APPLICABLE['OB-301-DOP-1015002']!.includes('FirstPaymentAmount'));
    // The suite's order: the manifests in order, each script in its place.
    assert.equal(v3.entries[0]!.id, 'OB-301-ACC-001000');
    assert.equal(v3.entries.at(-1)!.id, 'OB-301-VRP-102200');
  });

  test('docs/fcs-3.1.md and docs/fcs-4.0.md are the generated maps, word for word', () => {
    for (const map of maps.values()) {
      const page = readFileSync(join(root, 'docs', `fcs-${map.version}.md`), 'utf8');
      assert.ok(page === renderFcsMarkdown(map), `docs/fcs-${map.version}.md is stale: run \`node scripts/fcs-map.ts ${map.version} > docs/fcs-${map.version}.md\``);
    }
  });

  test('obtpp rules --fcs prints the same map (--json); an unknown version or no manifests is a usage error', async () => {
    const json = await cli(['rules', '--fcs', '3.1', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const map = JSON.parse(json.stdout);
    assert.equal(map.ids, 153);
    assert.deepEqual(map, JSON.parse(JSON.stringify(maps.get('3.1'))));
    const text = await cli(['rules', '--fcs', '3.1']);
    assert.match(text.stdout, /^OB-301-CBPII-000003 .*\n {2}asserts .*\n {2}covered by features\/obie\/uk-funds\.feature UKCOF-01: /m);
    assert.match(text.stdout, /^OB-301-VRP-100600 .*\n {2}asserts .*\n {2}not applicable: the suite runs it only where apiVersion <3\.1\.11/m);
    assert.equal((await cli(['rules', '--fcs', '5.0'])).code, 2);
    const none = await cli(['rules', '--fcs', '3.1', '--manifests', join(root, 'no-such-fcs-dir')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /cannot read the FCS 3\.1 manifest .*no-such-fcs-dir/);
    const rules = await cli(['rules']);
    assert.match(rules.stdout, /^UKCOF-01 +\d+ scenarios? +features\/obie\/uk-funds\.feature$/m);
  });
});
