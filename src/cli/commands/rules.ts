import type { Io } from '../io.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { packageRoot } from '../../conformance/runner.ts';
import { FCS_MANIFESTS, fcsDir, fcsMap, readScenarios, renderFcsText, type FcsVersion } from '../../conformance/fcs-map.ts';
import { forTerminal, jsonForTerminal } from '../terminal.ts';

export async function run(io: Io, options: { fcs?: string; manifests?: string; json?: boolean }): Promise<void> {
  const root = packageRoot();
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
