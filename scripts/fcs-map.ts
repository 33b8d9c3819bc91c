// Writes the FCS map page (docs/fcs-3.1.md) from the FCS manifests and the features' @fcs: tags:
//
//   node scripts/fcs-map.ts [VERSION] [--manifests DIR] > docs/fcs-3.1.md
//
// The manifests are read where they lie (--manifests, $OBTPP_FCS_DIR, else ../shared/reference/obie-fcs
// beside the checkout); test/conformance/fcs-map.test.ts fails when the page differs from this output.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fcsDir, fcsMap, renderFcsMarkdown, type FcsVersion } from '../src/conformance/fcs-map.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--manifests');
const manifests = at >= 0 ? args.splice(at, 2)[1] : undefined;
const version = (args[0] ?? '3.1') as FcsVersion;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const map = await fcsMap(root, fcsDir(root, process.env, process.cwd(), manifests), version);
if (map.unknownTags.length) {
  process.stderr.write(`@fcs: tags naming no FCS ${version} id: ${map.unknownTags.map((u) => `${u.tag} (${u.feature}: ${u.scenario})`).join('; ')}\n`);
  process.exitCode = 1;
}
process.stdout.write(renderFcsMarkdown(map));
