import { afterAll, describe, expect } from 'vitest';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { jwkThumbprint } from '../src/httpsig/index.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { ED25519_JWK, WELL_KNOWN } from '../src/spec/wire.js';
import { check, type CheckContext } from './lib/check.js';
import { context } from './lib/context.js';
import { suiteTarget } from './lib/target.js';

/** Section 2.4 (and 4.3): the key directory the platform serves at its origin. */
const target = suiteTarget();
afterAll(() => target.close());

/** Reads the directory of a platform built for this check (a fresh one in-process, so a deployment fault applies). */
async function directory(record: CheckContext['record']) {
  await target.prepare({
    id: 'key-directory',
    description: 'the key directory',
    now: target.environment.now(),
    platform: { authority: target.environment.authority },
    documents: {},
    steps: [],
  });
  const request = { method: 'GET', url: `${target.environment.platformOrigin}${WELL_KNOWN.keyDirectory}`, headers: [] as Array<[string, string]>, body: null };
  const response = await target.send(request);
  record({ request: recordRequest(request), response: recordResponse(response) });
  return response;
}

describe(`2.4 key directory (${target.description})`, () => {
  check({
    id: 'key-directory.media-type',
    title: 'served at the origin with its media type',
    requirements: [REQUIREMENTS.keyDirectoryMediaType.id],
    level: 'MUST',
    run: async ({ record }) => {
      const response = await directory(record);
      expect(response.status, 'status').toBe(200);
      const mediaType = (response.headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase();
      expect(mediaType, 'Content-Type').toBe(MEDIA_TYPES.keyDirectory);
    },
  });

  check({
    id: 'key-directory.entries',
    title: 'lists Ed25519 public keys, one entry per thumbprint; empty only for a server that hosts no agent with a key',
    requirements: [REQUIREMENTS.keyDirectoryEntries.id],
    level: 'MUST',
    run: async (c) => {
      const response = await directory(c.record);
      const document = JSON.parse(Buffer.from(response.body).toString('utf8')) as { keys?: unknown };
      expect(Array.isArray(document.keys), 'the document has a "keys" array').toBe(true);
      const keys = document.keys as Array<Record<string, unknown>>;
      if (keys.length === 0) {
        // 2.4: "It lists the Ed25519 keys of every agent the server hosts": an empty list is right only for a server that
        // hosts no agent with a key, which the run knows of the embedded reference, and live of the agent --agent-url names.
        const hosted = await hostedKeys(c);
        if (hosted.length === 0) c.notRun(`the directory lists no key, which is right only for a server hosting no agent with a key; ${HOSTED_UNKNOWN}`);
        expect.fail(
          `the directory lists no key, though the server hosts an agent whose key set publishes ${hosted.length} Ed25519 key(s) (2.4: "It lists the Ed25519 keys of every agent the server hosts")`,
        );
      }
      const thumbprints = keys.map((k, i) => {
        expect([k.kty, k.crv], `keys[${i}] is an Ed25519 key`).toEqual([ED25519_JWK.kty, ED25519_JWK.crv]);
        expect(k.d, `keys[${i}] publishes no private key`).toBeUndefined();
        const thumbprint = jwkThumbprint(k as { kty: string });
        if (k.kid !== undefined) expect(k.kid, `keys[${i}].kid is its thumbprint`).toBe(thumbprint);
        return thumbprint;
      });
      expect(new Set(thumbprints).size, 'one entry per thumbprint').toBe(thumbprints.length);
    },
  });

  check({
    id: 'key-directory.lists-hosted-agents',
    title: 'lists the Ed25519 keys of every agent the server hosts, by thumbprint',
    requirements: [REQUIREMENTS.keyDirectoryEntries.id],
    level: 'MUST',
    run: async (c) => {
      const hosted = await hostedKeys(c);
      if (hosted.length === 0) c.notRun(HOSTED_UNKNOWN);
      const listed = new Set(keysOf(await directory(c.record)).map((k) => (typeof k.x === 'string' ? thumbprintOf(k.x) : '')));
      for (const key of hosted) expect(listed.has(thumbprintOf(key.x)), `the hosted agent key ${thumbprintOf(key.x)} is listed`).toBe(true);
    },
  });
});

const HOSTED_UNKNOWN =
  'needs to know an agent the server hosts: name one with --agent-url on the platform origin (such as /agents/NAME), whose key set lists its keys';

const thumbprintOf = (x: string) => jwkThumbprint({ kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x });

function keysOf(response: { body: Uint8Array }): Array<Record<string, unknown>> {
  const document = JSON.parse(Buffer.from(response.body).toString('utf8')) as { keys?: unknown };
  return Array.isArray(document.keys) ? (document.keys as Array<Record<string, unknown>>) : [];
}

/**
 * The Ed25519 keys of the agents the server hosts: the embedded reference's, or live the key set of the agent
 * `--agent-url` names when it is served on the platform's own origin (a hosted agent).
 */
async function hostedKeys(c: CheckContext): Promise<Array<{ x: string }>> {
  const ed25519 = (keys: readonly { kty: string; crv?: unknown; x?: unknown }[]) =>
    keys.filter((k): k is { kty: string; crv: string; x: string } => k.kty === ED25519_JWK.kty && k.crv === ED25519_JWK.crv && typeof k.x === 'string');
  if (target.hostedAgentKeys) return ed25519(target.hostedAgentKeys);
  const agentUrl = context.agentUrl;
  if (!agentUrl || new URL(agentUrl).origin !== new URL(target.environment.platformOrigin).origin) return [];
  const request = { method: 'GET', url: `${agentUrl}${WELL_KNOWN.jwks}`, headers: [] as Array<[string, string]>, body: null };
  const response = await target.send(request);
  c.record({ request: recordRequest(request), response: recordResponse(response) });
  if (response.status !== 200) c.notRun(`the hosted agent's key set at ${request.url} answered ${response.status}; ${HOSTED_UNKNOWN}`);
  return ed25519(keysOf(response) as Array<{ kty: string }>);
}
