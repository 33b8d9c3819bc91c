// Each fault that bends a resource route is declared in the module of that route (issue 23): every
// fault a route module tests (`faults.has('…')`) is one of that module's own declarations, every
// declaration of a module is tested there, and the central registries declare none of them. Reads
// the sources and the exported declarations; no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFaults } from '../../src/sandbox/faults.ts';
import { listBgFaults } from '../../src/sandbox/berlin-group/faults.ts';
import { AIS_FAULTS } from '../../src/sandbox/obie/ais.ts';
import { AIS_UK_FAULTS } from '../../src/sandbox/obie/ais-uk.ts';
import { CBPII_FAULTS } from '../../src/sandbox/obie/cbpii.ts';
import { PIS_FAULTS } from '../../src/sandbox/obie/pis.ts';
import { PIS_FAMILY_FAULTS } from '../../src/sandbox/obie/pis-families.ts';
import { PLUMBING_FAULTS } from '../../src/sandbox/obie/plumbing.ts';
import { ACCOUNT_FAULTS } from '../../src/sandbox/berlin-group/accounts.ts';
import { CONSENT_FAULTS } from '../../src/sandbox/berlin-group/consents.ts';
import { LIFECYCLE_FAULTS } from '../../src/sandbox/berlin-group/lifecycle.ts';
import { FUNDS_FAULTS } from '../../src/sandbox/berlin-group/funds.ts';
import { PAYMENT_FAULTS } from '../../src/sandbox/berlin-group/payments.ts';
import { PLUMBING_FAULTS as BG_PLUMBING_FAULTS } from '../../src/sandbox/berlin-group/plumbing.ts';
import { SCA_FAULTS } from '../../src/sandbox/berlin-group/sca.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Each route module and the faults it declares. */
const MODULES: Array<[string, ReadonlyArray<{ name: string }>]> = [
  ['src/sandbox/obie/ais.ts', AIS_FAULTS],
  ['src/sandbox/obie/ais-uk.ts', AIS_UK_FAULTS],
  ['src/sandbox/obie/cbpii.ts', CBPII_FAULTS],
  ['src/sandbox/obie/pis.ts', PIS_FAULTS],
  ['src/sandbox/obie/pis-families.ts', PIS_FAMILY_FAULTS],
  ['src/sandbox/obie/plumbing.ts', PLUMBING_FAULTS],
  ['src/sandbox/berlin-group/accounts.ts', ACCOUNT_FAULTS],
  ['src/sandbox/berlin-group/consents.ts', CONSENT_FAULTS],
  ['src/sandbox/berlin-group/lifecycle.ts', LIFECYCLE_FAULTS],
  ['src/sandbox/berlin-group/funds.ts', FUNDS_FAULTS],
  ['src/sandbox/berlin-group/payments.ts', PAYMENT_FAULTS],
  ['src/sandbox/berlin-group/plumbing.ts', BG_PLUMBING_FAULTS],
  ['src/sandbox/berlin-group/sca.ts', SCA_FAULTS],
];

/** The resource servers' routers: they bend nothing themselves. */
const ROUTERS = ['src/sandbox/obie/index.ts', 'src/sandbox/berlin-group/xs2a.ts'];

const tested = (source: string) => new Set([...source.matchAll(/faults\.has\('([\w-]+)'\)/g)].map((m) => m[1]!));

test('each fault is declared next to the routes it bends, and the registries list every declaration once', async () => {
  const declaredIn = new Map<string, string>();
  for (const [file, faults] of MODULES) {
    const source = await readFile(join(root, file), 'utf8');
    const own = new Set(faults.map((f) => f.name));
    for (const name of own) {
      assert.ok(!declaredIn.has(name), `${name} is declared in ${declaredIn.get(name)} and ${file}`);
      declaredIn.set(name, file);
    }
    assert.deepEqual([...tested(source)].filter((n) => !own.has(n)), [], `${file} bends faults it does not declare`);
    assert.deepEqual([...own].filter((n) => !tested(source).has(n)), [], `${file} declares faults it does not bend`);
  }
  for (const file of ROUTERS) assert.deepEqual([...tested(await readFile(join(root, file), 'utf8'))], [], `${file} bends a fault`);
  // The central tables keep only what bends no resource route (authorisation server, pages, registration, chaos).
  const central = await readFile(join(root, 'src/sandbox/faults.ts'), 'utf8');
  for (const name of declaredIn.keys()) assert.ok(!central.includes(`'${name}'`), `src/sandbox/faults.ts still names ${name}`);
  const listed = [...listFaults(), ...listBgFaults()].map((f) => f.name);
  for (const name of declaredIn.keys()) assert.equal(listed.filter((n) => n === name).length, 1, `${name} is listed once`);
});
