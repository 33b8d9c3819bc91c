// `npm test` runs this first: on a Node older than package.json's engines range, one line that
// says which Node is needed and how to get it, and exit 3 — instead of the test runner's own
// confusing failure. Plain JavaScript that any Node can parse.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const minimum = /(\d+\.\d+\.\d+)/.exec(pkg.engines && pkg.engines.node ? pkg.engines.node : '0.0.0')[1];
const num = (v) => /^v?(\d+)\.(\d+)\.(\d+)/.exec(v).slice(1, 4).map(Number);
const [a, b] = [num(process.version), num(minimum)];
let ok = true;
for (let i = 0; i < 3; i++) {
  if (a[i] !== b[i]) {
    ok = a[i] > b[i];
    break;
  }
}
if (!ok) {
  const script = process.argv[2] || 'test';
  process.stderr.write(`npm ${script}: obtpp needs Node.js ${minimum} or newer, and this is Node.js ${process.version.slice(1)}; ` +
    `run \`npx -y -p node@24 -c 'npm ${script}'\`, or switch with a version manager (\`nvm install 24\`, \`fnm use --install-if-missing 24\`, \`volta install node@24\`) and run \`npm ${script}\` again\n`);
  process.exitCode = 3;
}
