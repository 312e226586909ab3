import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializeVectors, signedRequestVectors } from '../src/scenarios/signed-request-vectors.js';

/** `npm run vectors`: regenerates every vector file from its scenarios. Never edit the files by hand. */
const out = (name: string) => fileURLToPath(new URL(`../vectors/${name}`, import.meta.url));
const vectors = await signedRequestVectors();
writeFileSync(out('signed-requests.json'), serializeVectors(vectors));
console.log(`vectors/signed-requests.json: ${vectors.numberOfTests} cases in ${vectors.testGroups.length} groups`);
