import type { Io } from '../io.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { packageRoot } from '../../conformance/runner.ts';
import { FCS_MANIFESTS, fcsDir, fcsMap, readScenarios, renderFcsText, type FcsVersion } from '../../conformance/fcs-map.ts';
import { forTerminal, jsonForTerminal } from '../terminal.ts';

export async function run(io: Io, options: { fcs?: string; manifests?: string; oidf?: string; plans?: string; json?: boolean }): Promise<void> {
  const root = packageRoot();
  if (options.oidf !== undefined) return oidf(io, root, options);
  if (options.plans !== undefined) throw new UsageError('--plans goes with --oidf (e.g. obtpp rules --oidf fapi2 --plans DIR)');
  if (options.fcs === undefined) {
    if (options.manifests !== undefined) throw new UsageError('--manifests goes with --fcs (e.g. obtpp rules --fcs 3.1 --manifests DIR)');
    const rules = new Map<string, { features: Set<string>; scenarios: number }>();
    for (const s of await readScenarios(root)) {
      if (!s.rule) continue;
      const r = rules.get(s.rule) ?? { features: new Set<string>(), scenarios: 0 };
      r.features.add(s.feature);
      r.scenarios++;
      rules.set(s.rule, r);
    }
    const list = [...rules].sort(([a], [b]) => a.localeCompare(b)).map(([id, r]) => ({ id, features: [...r.features], scenarios: r.scenarios }));
    io.stdout.write(options.json ? jsonForTerminal(list) + '\n' : list.map((r) => `${r.id.padEnd(9)} ${String(r.scenarios).padStart(3)} scenario${r.scenarios === 1 ? ' ' : 's'}  ${r.features.join(', ')}`).join('\n') + '\n');
    return;
  }
  if (!(options.fcs in FCS_MANIFESTS)) throw new UsageError(`--fcs ${options.fcs}: the FCS versions obtpp maps are ${Object.keys(FCS_MANIFESTS).join(', ')}`);
  const map = await fcsMap(root, fcsDir(root, io.env, io.cwd, options.manifests), options.fcs as FcsVersion);
  // The manifests are outside text: shown escaped, like all of it.
  io.stdout.write(options.json ? jsonForTerminal(map) + '\n' : forTerminal(renderFcsText(map)) + '\n');
  if (map.unknownTags.length) {
    io.stderr.write(forTerminal(`obtpp: ${map.unknownTags.length} @fcs: tag${map.unknownTags.length === 1 ? ' names an id' : 's name ids'} no FCS ${map.version} manifest has: ${map.unknownTags.map((u) => u.tag).join(', ')}`) + '\n');
    io.exitCode = ExitCode.nonConformant;
  }
  // A tag that claims more than its scenario judges, or a test the suite makes inapplicable, is the features' mistake too.
  const wrong = [...map.overclaims.map((o) => `@fcs:${o.id} (does not judge ${o.missing.join(', ')})`), ...map.inapplicableTags.map((t) => `${t.tag} (not applicable)`), ...map.undefinedSteps.map((u) => `"${u.step}" (no step definition)`)];
  if (wrong.length) {
    io.stderr.write(forTerminal(`obtpp: ${wrong.length} FCS claim${wrong.length === 1 ? '' : 's'} of the features do not hold: ${wrong.join('; ')}`) + '\n');
    io.exitCode = ExitCode.nonConformant;
  }
}

/** `--oidf <plan>`: the map from the OpenID Foundation's plan to the scenarios (src/conformance/oidf-map.ts). */
async function oidf(io: Io, root: string, options: { oidf?: string; plans?: string; fcs?: string; json?: boolean }): Promise<void> {
  if (options.fcs !== undefined) throw new UsageError('--oidf and --fcs are two maps: ask for one at a time');
  const { OIDF_PLANS, oidfDir, oidfMap, renderOidfText } = await import('../../conformance/oidf-map.ts');
  if (!(options.oidf! in OIDF_PLANS)) throw new UsageError(`--oidf ${options.oidf}: the OIDF plans obtpp maps are ${Object.keys(OIDF_PLANS).join(', ')}`);
  const map = await oidfMap(root, oidfDir(root, io.env, io.cwd, options.plans), options.oidf as keyof typeof OIDF_PLANS);
  // The plan files are outside text: shown escaped, like all of it.
  io.stdout.write(options.json ? jsonForTerminal(map) + '\n' : forTerminal(renderOidfText(map)) + '\n');
  const wrong = [
    ...map.entries.filter((e) => e.status === 'not-covered').map((e) => `${e.module} (no scenario, no reason)`),
    ...map.unknownTags.map((u) => `${u.tag} (no module of either plan)`),
    ...map.inapplicableTags.map((u) => `${u.tag} (a module not applicable)`),
    ...map.unselectable.map((u) => `${u.feature}: ${u.scenario} (tagged @oidf: without @oidf)`),
  ];
  if (wrong.length) {
    io.stderr.write(forTerminal(`obtpp: the OIDF map of ${map.plan} does not hold: ${wrong.join('; ')}`) + '\n');
    io.exitCode = ExitCode.nonConformant;
  }
}
