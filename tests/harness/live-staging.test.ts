import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { SignedRequestCase, SignedRequestVectors } from '../../src/cases/types.js';
import { runCaseOnTarget } from '../../src/harness/case-on-target.js';
import { accessTokenOf, OWNER_KEY_REASON, planLive, stageLive, WAIT_REREAD_REASON } from '../../src/harness/live-staging.js';
import { caseWaitSeconds } from '../../src/harness/live-waits.js';
import type { Target, TargetResponse } from '../../src/harness/target.js';
import { parseSignatureInput } from '../../src/httpsig/index.js';
import { keyFromName } from '../../src/scenarios/identities.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PROJECT_ROOT } from '../paths.js';

const vectors = JSON.parse(readFileSync(`${PROJECT_ROOT}/vectors/signed-requests.json`, 'utf8')) as SignedRequestVectors;
const vector = (id: string): SignedRequestCase => vectors.testGroups.flatMap((g) => g.cases).find((c) => c.id === id)!;
const A = keyFromName('alice-1');
const A2 = keyFromName('alice-2');
const NOW = vector('continuity-new-key-alone').now;
const nonce = () => 'fresh-nonce';

/** The thumbprints a request's Signature-Input names, label by label. */
function keyids(c: SignedRequestCase, step: number): string[] {
  const input = c.steps[step]!.request.headers.find(([n]) => n === HEADERS.signatureInput)![1];
  const parsed = parseSignatureInput(input);
  if (!parsed) throw new Error('unparsable Signature-Input');
  return [...parsed.values()].map((m) => m.params.get('keyid') as string);
}

const keysPublished = (c: SignedRequestCase, url: string) => (JSON.parse(c.documents[url]!.body!) as { keys: Array<{ x: string }> }).keys.map((k) => k.x);

describe('a case that starts from a registration is staged through the signed request itself (5.2)', () => {
  test('the agent first signs with the registered key, from a key set carrying it; no state is seeded', () => {
    const c = vector('continuity-new-key-alone');
    expect(planLive(c, { allowWaits: false })).toEqual({ delay: 0 });
    const staged = stageLive(c, NOW, { allowWaits: false, nonce });
    expect(staged.registrations).toBeUndefined();
    expect(staged.steps).toHaveLength(c.steps.length + 1);
    expect(keyids(staged, 0)).toEqual([A.thumbprint]);
    expect(staged.steps[0]!.expect).toMatchObject({ ok: true });
    expect(staged.steps.slice(1)).toEqual(c.steps);
  });

  test("when the case's key set no longer carries the registered key, it is published only after the platform's re-read interval", () => {
    const c = vector('continuity-old-key-removed');
    expect(planLive(c, { allowWaits: false })).toEqual({ notRun: WAIT_REREAD_REASON });
    expect(planLive(c, { allowWaits: true })).toEqual({ delay: 305 });
    const staged = stageLive(c, NOW, { allowWaits: true, nonce });
    const keySetUrl = Object.keys(c.documents).find((u) => u.endsWith('/jwks.json'))!;
    expect(keysPublished(staged, keySetUrl).sort()).toEqual([A.publicJwk.x, A2.publicJwk.x].sort());
    expect(staged.steps[1]!.documents?.[keySetUrl]).toEqual(c.documents[keySetUrl]);
    expect(caseWaitSeconds(c)).toBe(335);
  });

  test("the operator's key is the run's (--owner-key), or the case is not run", () => {
    const c = vector('continuity-owner-key');
    expect(planLive(c, { allowWaits: false })).toEqual({ notRun: OWNER_KEY_REASON });
    expect(planLive(c, { allowWaits: false, ownerKey: 'k-123' })).toEqual({ delay: 0 });
    const staged = stageLive(c, NOW, { allowWaits: false, ownerKey: 'k-123', nonce });
    expect(staged.platform.owner_keys).toBeUndefined();
    const presented = staged.steps.flatMap((s) => s.request.headers.filter(([n]) => n === HEADERS.ownerKey).map(([, v]) => v));
    expect(presented).toEqual(['not-the-owner-key', 'k-123']);
  });

  test('a valid platform token is one the deployment issued (its CLI token route), presented where the case presents its own', () => {
    const c = vector('signed-request-ignores-valid-bearer');
    expect(planLive(c, { allowWaits: false })).toEqual({ delay: 0, platformToken: true });
    const staged = stageLive(c, NOW, { allowWaits: false, nonce, platformToken: 'a.b.c' });
    expect(staged.platform.token_keys).toBeUndefined();
    expect(staged.steps[0]!.request.headers.filter(([n]) => n === HEADERS.authorization)).toEqual([[HEADERS.authorization, 'Bearer a.b.c']]);
    expect(accessTokenOf(200, new TextEncoder().encode('{"access_token":"a.b.c","token_type":"Bearer"}'))).toBe('a.b.c');
    expect(accessTokenOf(200, new TextEncoder().encode('{"token":"a.b.c"}'))).toBeUndefined();
    expect(accessTokenOf(401, new TextEncoder().encode('{"access_token":"a.b.c"}'))).toBeUndefined();
  });

  test('a self-signed token is refused by any platform: the platform-only token keys are dropped', () => {
    const staged = stageLive(vector('platform-token-self-signed'), NOW, { allowWaits: false, nonce });
    expect(staged.platform.token_keys).toBeUndefined();
    expect(stageLive(vector('platform-token-expired'), NOW, { allowWaits: false, nonce }).platform.token_keys).toBeDefined();
  });
});

describe('steps at later times on a live target', () => {
  test('a step expecting what is remembered goes at its offset from the first request; one expecting it forgotten after the last answer, and a margin', async () => {
    const c = vector('key-set-failure-cached');
    const asked: number[] = [];
    let wall = 1000;
    const answer: TargetResponse = { status: 200, headers: {}, body: new Uint8Array() };
    const target = {
      kind: 'live',
      environment: {},
      prepare: async () => undefined,
      step: async (at: number) => void asked.push(at),
      send: async () => {
        wall += 1.5;
        return answer;
      },
    } as unknown as Target;
    const realNow = Date.now;
    Date.now = () => wall * 1000;
    try {
      await runCaseOnTarget(c, target);
    } finally {
      Date.now = realNow;
    }
    expect(asked).toEqual([c.now, 1000 + 299 - 2, 1001.5 + 2 + 301]);
  });
});
