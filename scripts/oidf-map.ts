// Writes the OIDF map page (docs/oidf.md) from the OpenID Foundation's FAPI plans and the features' @oidf: tags:
//
//   node scripts/oidf-map.ts [--plans DIR] > docs/oidf.md
//
// The plans are read where they lie (--plans, $OBTPP_OIDF_DIR, else ../shared/reference/oidf beside the
// checkout); test/conformance/oidf-map.test.ts fails when the page differs from this output.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OIDF_PLANS, oidfDir, oidfMap, renderOidfMarkdown, type OidfPlan } from '../src/conformance/oidf-map.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--plans');
const plans = at >= 0 ? args.splice(at, 2)[1] : undefined;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = oidfDir(root, process.env, process.cwd(), plans);
const maps = await Promise.all((Object.keys(OIDF_PLANS) as OidfPlan[]).map((p) => oidfMap(root, dir, p)));
for (const map of maps) {
  const wrong = [...map.unknownTags.map((u) => u.tag), ...map.entries.filter((e) => e.status === 'not-covered').map((e) => e.module)];
  if (wrong.length) {
    process.stderr.write(`${map.plan}: ${wrong.join(', ')}\n`);
    process.exitCode = 1;
  }
}
process.stdout.write(renderOidfMarkdown(maps));
