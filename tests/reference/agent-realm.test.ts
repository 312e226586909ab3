import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROBES } from '../../src/contract/probes.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { HEADERS } from '../../src/spec/headers.js';

/** The agent serve mounts beside the platform answers its 401s under the deployment's name for Service, as the platform does. */
let named: ServedReference;
let neutral: ServedReference;
beforeAll(async () => {
  [named, neutral] = await Promise.all([
    serveReference({ port: 0, agent: { name: 'reference' }, platform: { serviceName: 'Acme' } }),
    serveReference({ port: 0, agent: { name: 'reference' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([named?.close(), neutral?.close()]);
});

const challengeAt = async (served: ServedReference) => {
  const response = await fetch(`${served.agent!.urls.agentUrl}${PROBES.user.path}`);
  expect(response.status).toBe(401);
  return response.headers.get(HEADERS.wwwAuthenticate);
};

describe("the served agent's 401 realm", () => {
  test('is acme under serve --service-name Acme', async () => {
    expect(await challengeAt(named)).toBe('Bearer realm="acme"');
  });
  test("is the spec's service otherwise", async () => {
    expect(await challengeAt(neutral)).toBe('Bearer realm="service"');
  });
});
