// The OIDF maps are the ledger of which OpenID Foundation FAPI module each scenario stands for
// (issue 38, item 5): every module of the two plan files (../shared/reference/oidf, read where they
// lie, as the FCS map reads the FCS manifests) is covered by a scenario tagged @oidf:<module>, or
// is not applicable to the banks obtpp judges, with the reason; docs/oidf.md is exactly the generated
// maps; `obtpp rules --oidf` prints them. Without the plan files the maps cannot be checked, and the
// tests say so and skip.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/program.ts';
import { scenariosOf } from '../../src/conformance/fcs-map.ts';
import { buildOidfMap, oidfDir, oidfMap, readOidfModules, renderOidfMarkdown, OIDF_PLANS, type OidfMap, type OidfPlan } from '../../src/conformance/oidf-map.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = oidfDir(root, process.env, root);
const skip = existsSync(join(dir, OIDF_PLANS.fapi2)) ? false : `the OIDF plans are not at ${dir} (set OBTPP_OIDF_DIR, or check out ../shared beside the project)`;

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [out, err] = [new PassThrough(), new PassThrough()];
  const chunks = { stdout: '', stderr: '' };
  out.on('data', (c) => (chunks.stdout += c));
  err.on('data', (c) => (chunks.stderr += c));
  const code = await runCli(args, { stdout: out, stderr: err, env: { OBTPP_OIDF_DIR: dir }, cwd: root, color: false, interactive: false, exitCode: 0 });
  return { code, ...chunks };
}

const maps = new Map<OidfPlan, OidfMap>();

describe('the OIDF maps', { skip }, () => {
  before(async () => {
    for (const p of Object.keys(OIDF_PLANS) as OidfPlan[]) maps.set(p, await oidfMap(root, dir, p));
  });

  test('the plans hold 57 modules (fapi1-advanced-final) and 91 (the FAPI 2.0 security profile and message signing plans)', async () => {
    assert.equal((await readOidfModules(dir, 'fapi1-advanced')).length, 57);
    const f2 = await readOidfModules(dir, 'fapi2');
    assert.equal(f2.length, 91);
    assert.equal(f2.filter((m) => m.plans === 'ms').length, 18, 'modules of the message-signing plan only (73 in both)');
  });

  test('every module is covered by a scenario, or not applicable with its reason; no tag names a module of neither plan', () => {
    for (const map of maps.values()) {
      assert.deepEqual(map.entries.filter((e) => e.status === 'not-covered').map((e) => e.module), [], `${map.plan}: modules with neither a scenario nor a reason`);
      assert.deepEqual(map.unknownTags, [], `${map.plan}: tags naming no module`);
      assert.deepEqual(map.inapplicableTags, [], `${map.plan}: tags on modules not applicable`);
      assert.deepEqual(map.unselectable, [], `${map.plan}: @oidf: scenarios that --tags @oidf would not select`);
      for (const e of map.entries.filter((x) => x.status === 'not-applicable')) assert.ok((e.reason ?? '').length > 60, `${e.module} says why`);
    }
    const f1 = maps.get('fapi1-advanced')!;
    const f2 = maps.get('fapi2')!;
    assert.deepEqual([f1.covered, f1.notApplicable], [55, 2]);
    assert.deepEqual([f2.covered, f2.notApplicable], [71, 20]);
    // Not applicable: the ecosystems' own modules and grant management, nothing of UK Open Banking or plain FAPI.
    assert.deepEqual(f1.entries.filter((e) => e.status === 'not-applicable').map((e) => e.group), ['openbanking-brazil', 'openbanking-brazil']);
    for (const e of f2.entries.filter((x) => x.status === 'not-applicable')) assert.match(e.module, /-(brazil|cdr|australia-connect-id|ksa|grant-management)-/, e.module);
    // The modules of FAPI 1.0 Advanced as the UK runs it, and of FAPI 2.0 with DPoP or mTLS, all covered.
    for (const m of ['fapi1-advanced-final', 'fapi1-advanced-final-ensure-server-handles-non-matching-intent-id', 'fapi1-advanced-final-test-essential-acr-sca-claim', 'fapi1-advanced-final-ensure-response-type-code-fails']) {
      assert.equal(f1.entries.find((e) => e.module === m)?.status, 'covered', m);
    }
    for (const m of ['fapi2-security-profile-final-dpop-negative-tests', 'fapi2-security-profile-final-ensure-holder-of-key-required', 'fapi2-security-profile-final-par-attempt-to-use-expired-request-uri']) {
      assert.equal(f2.entries.find((e) => e.module === m)?.status, 'covered', m);
    }
    // Where a module applies within its plan: the PAR group of FAPI 1.0 is not the UK variant's.
    assert.match(f1.entries.find((e) => e.module === 'fapi1-advanced-final-par-attempt-reuse-request-uri')!.applies!, /not in the UK variant/);
    assert.match(f2.entries.find((e) => e.module === 'fapi2-security-profile-final-ensure-request-object-with-bad-aud-fails')!.applies!, /Message Signing only/);
  });

  test('each covering scenario is one of the security rules\' (SEC-01, -04, -11, -13, -15 … -24)', () => {
    for (const map of maps.values()) {
      for (const e of map.entries) for (const c of e.covers) assert.match(c.rule ?? '', /^SEC-(01|04|11|13|1[5-9]|2[0-4])$/, `${e.module}: ${c.feature}: ${c.scenario}`);
    }
  });

  test('the check can fail: a module without a tag is not covered, a tag naming no module or an inapplicable one is reported, and so is a scenario without @oidf', async () => {
    const modules = await readOidfModules(dir, 'fapi1-advanced');
    const text = [
      'Feature: x',
      '  @SEC-18 @oidf @oidf:fapi1-advanced-final',
      '  Scenario: the happy flow',
      '    Given nothing',
      '  @SEC-18 @oidf:fapi1-advanced-final-no-such-module',
      '  Scenario: a module the plan does not have, without @oidf',
      '    Given nothing',
      '  @SEC-18 @oidf @oidf:fapi1-advanced-final-brazil-ensure-encryption-required',
      '  Scenario: a Brazil module',
      '    Given nothing',
    ].join('\n') + '\n';
    const map = buildOidfMap(modules, scenariosOf('features/obie/x.feature', text), 'fapi1-advanced');
    assert.equal(map.covered, 1);
    assert.equal(map.uncovered, 54, 'every other module of the UK variant has neither');
    assert.equal(map.entries.find((e) => e.module === 'fapi1-advanced-final-ensure-response-type-code-fails')!.status, 'not-covered');
    assert.deepEqual(map.unknownTags.map((t) => t.tag), ['@oidf:fapi1-advanced-final-no-such-module']);
    assert.deepEqual(map.inapplicableTags.map((t) => t.tag), ['@oidf:fapi1-advanced-final-brazil-ensure-encryption-required']);
    assert.deepEqual(map.unselectable.map((u) => u.scenario), ['a module the plan does not have, without @oidf']);
  });

  test('docs/oidf.md is the generated maps, word for word', () => {
    const page = readFileSync(join(root, 'docs', 'oidf.md'), 'utf8');
    assert.ok(page === renderOidfMarkdown([...maps.values()]), 'docs/oidf.md is stale: run `node scripts/oidf-map.ts > docs/oidf.md`');
  });

  test('obtpp rules --oidf prints the same map (--json); an unknown plan or no plans is a usage error', async () => {
    const json = await cli(['rules', '--oidf', 'fapi2', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), JSON.parse(JSON.stringify(maps.get('fapi2'))));
    const text = await cli(['rules', '--oidf', 'fapi1-advanced']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^OIDF fapi1-advanced-final-test-plan: 57 modules, 55 covered, 2 not applicable, 0 not covered$/m);
    assert.match(text.stdout, /^fapi1-advanced-final-ensure-signed-request-object-with-rs256-fails {2}\(request-object\)\n {2}covered by features\/obie\/authorisation-server\.feature SEC-17: /m);
    assert.match(text.stdout, /^fapi1-advanced-final-brazil-ensure-encryption-required {2}\(openbanking-brazil\)\n {2}not applicable: Open Finance Brasil only/m);
    assert.equal((await cli(['rules', '--oidf', 'fapi3'])).code, 2);
    const none = await cli(['rules', '--oidf', 'fapi2', '--plans', join(root, 'no-such-oidf-dir')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /cannot read the OIDF plan .*no-such-oidf-dir/);
  });
});
