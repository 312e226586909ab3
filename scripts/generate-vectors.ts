import { readFileSync, writeFileSync } from 'node:fs';
import { writeBrowserBundles } from './browser-bundles.js';
import { fileURLToPath } from 'node:url';
import { writeCheckIndex, CHECK_INDEX_FILE } from '../src/harness/check-index.js';
import { collectChecks } from '../src/harness/collect-checks.js';
import { FIGURE_DOCUMENTS, withFigures } from './figures.js';
import { readingsMarkdown } from './readings-doc.js';
import { clientCasesMarkdown } from './client-cases-doc.js';
import { accessVectors } from '../src/scenarios/agents/access-vectors.js';
import { sdkTokenVectors } from '../src/scenarios/agents/sdk-token-vectors.js';
import { purchaseVectors } from '../src/scenarios/purchases/vectors.js';
import { serializeVectors, signedRequestVectors } from '../src/scenarios/signed-request-vectors.js';
import { widgetVectors } from '../src/scenarios/widgets/vectors.js';

/** `npm run vectors`: regenerates every vector file from its scenarios, and the suites' check index. Never edit them by hand. */
const out = (name: string) => fileURLToPath(new URL(`../vectors/${name}`, import.meta.url));

interface VectorFile {
  readonly numberOfTests: number;
  readonly testGroups: readonly unknown[];
}

const FILES: ReadonlyArray<readonly [string, () => Promise<VectorFile>]> = [
  ['signed-requests.json', signedRequestVectors],
  ['sdk-tokens.json', () => sdkTokenVectors()],
  ['access.json', accessVectors],
  ['widgets.json', widgetVectors],
  ['purchases.json', purchaseVectors],
];

for (const [name, generate] of FILES) {
  const vectors = await generate();
  writeFileSync(out(name), serializeVectors(vectors));
  console.log(`vectors/${name}: ${vectors.numberOfTests} cases in ${vectors.testGroups.length} groups`);
}

const root = fileURLToPath(new URL('..', import.meta.url));
for (const line of await writeBrowserBundles()) console.log(line);
const checks = await collectChecks(root);
writeCheckIndex(root, checks);
console.log(`${CHECK_INDEX_FILE}: ${checks.length} checks in ${new Set(checks.map((c) => c.file)).size} suite files`);
writeFileSync(fileURLToPath(new URL('../docs/readings.md', import.meta.url)), readingsMarkdown());
console.log('docs/readings.md: the readings of src/spec/readings/');
writeFileSync(fileURLToPath(new URL('../docs/client-cases.md', import.meta.url)), clientCasesMarkdown());
console.log('docs/client-cases.md: the cases and checks of client mode');
for (const document of FIGURE_DOCUMENTS) {
  const path = fileURLToPath(new URL(`../${document}`, import.meta.url));
  writeFileSync(path, withFigures(readFileSync(path, 'utf8')));
  console.log(`${document}: its figures, from the generated files (scripts/figures.ts)`);
}
