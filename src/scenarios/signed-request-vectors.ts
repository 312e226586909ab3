import type { SignedRequestVectors, VectorCase } from '../cases/types.js';
import { buildCase, type ScenarioEnv, VECTOR_ENV } from './kit.js';
import { SIGNED_REQUEST_FLAGS, SIGNED_REQUEST_GROUPS } from './signed/index.js';

/** Bump when the generator changes what it writes for the same scenarios. */
const SIGNED_REQUEST_GENERATOR_VERSION = '1';
const SIGNED_REQUEST_SCHEMA = 'signed-requests.schema.json';

/** Builds vectors/signed-requests.json: deterministic for VECTOR_ENV (fixed time, keys and nonces). */
export async function signedRequestVectors(env: ScenarioEnv = VECTOR_ENV): Promise<SignedRequestVectors> {
  const testGroups = [];
  let count = 0;
  for (const group of SIGNED_REQUEST_GROUPS) {
    const cases: VectorCase[] = [];
    for (const scenario of group.scenarios) cases.push((await buildCase(env, scenario)) as VectorCase);
    count += cases.length;
    testGroups.push({ comment: group.comment, cases });
  }
  return {
    algorithm: 'Web Bot Auth over RFC 9421 (Ed25519), platform bearer tokens',
    schema: SIGNED_REQUEST_SCHEMA,
    generatorVersion: SIGNED_REQUEST_GENERATOR_VERSION,
    numberOfTests: count,
    notes: SIGNED_REQUEST_FLAGS,
    testGroups,
  };
}

export function serializeVectors(vectors: unknown): string {
  return `${JSON.stringify(vectors, null, 2)}\n`;
}
