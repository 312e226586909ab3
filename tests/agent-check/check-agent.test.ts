import { describe, expect, it } from 'vitest';
import { checkAgent } from '../../src/agent-check/index.js';
import { createMemoryFetcher, type MemoryDocument } from '../../src/fetch/index.js';
import { keyFromName } from '../../src/scenarios/identities.js';
import { AGENT_CHECK_PROBLEMS as P, HEADERS, LIMITS, MEDIA_TYPES, REQUIREMENTS, RFC9421_TEST_KEYS, WELL_KNOWN } from '../../src/spec/index.js';

const AGENT = 'https://agents.example/a/alice';
const CARD = AGENT + WELL_KNOWN.agentCard;
const KEYS = AGENT + WELL_KNOWN.jwks;
const DIRECTORY = `https://agents.example${WELL_KNOWN.keyDirectory}`;
const key = keyFromName('check-agent/alice');
const entry = { ...key.publicJwk, kid: key.thumbprint };

const doc = (body: unknown, mediaType: string = MEDIA_TYPES.json): MemoryDocument => ({
  status: 200,
  headers: { [HEADERS.contentType]: mediaType },
  body: JSON.stringify(body),
});
const goodCard = { client_id: CARD, url: AGENT, jwks_uri: KEYS };

function documents(over: Record<string, MemoryDocument | undefined> = {}): Record<string, MemoryDocument> {
  const all: Record<string, MemoryDocument | undefined> = {
    [CARD]: doc(goodCard),
    [KEYS]: doc({ keys: [entry] }),
    [DIRECTORY]: doc({ keys: [entry] }, MEDIA_TYPES.keyDirectory),
    ...over,
  };
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, MemoryDocument] => e[1] !== undefined));
}

const run = (over: Record<string, MemoryDocument | undefined> = {}) => checkAgent(AGENT, createMemoryFetcher(documents(over)));
const codes = (report: Awaited<ReturnType<typeof run>>) => report.problems.map((p) => p.code);

describe('checkAgent', () => {
  it('passes a conformant agent with every document 200 and no problem', async () => {
    const report = await run();
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.documents.map((d) => [d.name, d.url, d.status, d.ok])).toEqual([
      ['card', CARD, 200, true],
      ['key_set', KEYS, 200, true],
      ['key_directory', DIRECTORY, 200, true],
    ]);
  });

  it('names every self-naming fault of the card at once, each with the value the spec wants', async () => {
    const report = await run({ [CARD]: doc({ client_id: AGENT, url: `${AGENT}/`, jwks_uri: 'https://elsewhere.example/jwks.json' }) });
    expect(report.ok).toBe(false);
    expect(codes(report)).toEqual([P.cardClientId, P.cardUrl, P.cardJwksUri]);
    expect(report.problems.every((p) => p.requirement === REQUIREMENTS.agentCardSelfNaming.id && p.url === CARD)).toBe(true);
    expect(report.problems[0]!.message).toContain(`"${CARD}"`);
    expect(report.problems[1]!.message).toContain('Drop the trailing slash');
  });

  it('refuses a card with both jwks_uri and jwks, and one with neither', async () => {
    expect(codes(await run({ [CARD]: doc({ ...goodCard, jwks: { keys: [entry] } }) }))).toEqual([P.cardKeySetBoth]);
    expect(codes(await run({ [CARD]: doc({ client_id: CARD, url: AGENT }) }))).toEqual([P.cardKeySetMissing]);
  });

  it('fails a card that carries a key outside its inline jwks (2.4: it carries no key), naming where', async () => {
    const report = await run({ [CARD]: doc({ ...goodCard, verificationMethod: [{ id: '#k1', publicKeyJwk: key.publicJwk }] }) });
    expect(report.problems.map((p) => [p.code, p.level, p.requirement])).toEqual([[P.cardCarriesKey, 'error', REQUIREMENTS.agentCardSelfNaming.id]]);
    expect(report.problems[0]!.message).toContain('verificationMethod[0].publicKeyJwk');
    const inline = { client_id: CARD, url: AGENT, jwks: { keys: [entry] } };
    expect(codes(await run({ [CARD]: doc(inline) }))).toEqual([]);
  });

  it('judges an inline jwks as a key set', async () => {
    const inline = { client_id: CARD, url: AGENT, jwks: { keys: [{ ...entry, use: 'enc' }] } };
    const report = await run({ [CARD]: doc(inline) });
    expect(codes(report)).toEqual([P.keySetNoUsableKey, P.keyUseNotSig]);
    expect(report.problems.map((p) => p.level)).toEqual(['error', 'warning']);
  });

  it('refuses 17 keys, naming the limit of section 8', async () => {
    const keys = Array.from({ length: LIMITS.keysPerKeySet.value + 1 }, (_, i) => keyFromName(`check-agent/many/${i}`).publicJwk);
    const report = await run({ [KEYS]: doc({ keys }), [DIRECTORY]: doc({ keys }, MEDIA_TYPES.keyDirectory) });
    expect(codes(report)).toEqual([P.keySetTooManyKeys]);
    expect(report.problems[0]!.requirement).toBe(LIMITS.keysPerKeySet.id);
    expect(report.problems[0]!.message).toContain(`at most ${LIMITS.keysPerKeySet.value}`);
  });

  it('names the RFC 9421 test key, a private member, a non-Ed25519 key and a missing use, all at once, failing on the first two', async () => {
    const testKey = { kty: 'OKP', crv: 'Ed25519', x: RFC9421_TEST_KEYS.ed25519X[0], use: 'sig' };
    const keys = [testKey, { ...key.privateJwk, use: 'sig' }, { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', use: 'sig' }, { ...key.publicJwk, use: undefined }];
    const report = await run({ [KEYS]: doc({ keys }) });
    expect(report.problems.map((p) => [p.code, p.level])).toEqual([
      [P.keyIsTestKey, 'error'],
      [P.keyPrivate, 'error'],
      [P.keyNotEd25519, 'warning'],
      [P.keyUseMissing, 'warning'],
    ]);
  });

  it('warns about an RSA key without failing the agent', async () => {
    const report = await run({ [KEYS]: doc({ keys: [entry, { kty: 'RSA', n: 'AQAB', e: 'AQAB', use: 'sig' }] }) });
    expect(report.ok).toBe(true);
    expect(report.problems.map((p) => [p.code, p.level])).toEqual([[P.keyRsaBesideEd25519, 'warning']]);
  });

  it('refuses a key directory served with the wrong media type or missing the agent key', async () => {
    expect(codes(await run({ [DIRECTORY]: doc({ keys: [entry] }) }))).toEqual([P.directoryMediaType]);
    const other = keyFromName('check-agent/other');
    expect(codes(await run({ [DIRECTORY]: doc({ keys: [other.publicJwk, other.publicJwk] }, MEDIA_TYPES.keyDirectory) }))).toEqual([
      P.directoryDuplicate,
      P.directoryLacksAgentKey,
    ]);
  });

  it('only warns when the origin has no key directory (404)', async () => {
    const report = await run({ [DIRECTORY]: { status: 404, body: '' } });
    expect(report.ok).toBe(true);
    expect(report.problems.map((p) => [p.code, p.level, p.requirement])).toEqual([
      [P.directoryMissing, 'warning', REQUIREMENTS.agentKeyDirectoryWithoutIdentity.id],
    ]);
  });

  it('refuses a redirected key set under the fetch rules and says why and how to fix it', async () => {
    const report = await run({ [KEYS]: { status: 302, headers: { [HEADERS.location]: 'https://elsewhere.example/jwks.json' }, body: '' } });
    expect(report.ok).toBe(false);
    const problem = report.problems.find((p) => p.url === KEYS)!;
    expect([problem.code, problem.requirement]).toEqual([P.documentUnreachable, REQUIREMENTS.agentDocumentsFetchable.id]);
    expect(problem.message).toMatch(/302.*redirects are not followed.*status 200/s);
    expect(report.documents.find((d) => d.name === 'key_set')).toMatchObject({ status: 302, ok: false });
  });

  it('says the agent is unreachable when nothing answers', async () => {
    const report = await checkAgent(AGENT, createMemoryFetcher({}));
    expect(report.unreachable).toBe(true);
    expect(report.documents.every((d) => d.status === null)).toBe(true);
  });

  it('refuses a body that is not JSON', async () => {
    expect(codes(await run({ [CARD]: { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.html }, body: '<html>' } }))).toEqual([P.documentNotJson]);
  });

  it('says a private key is exposed wherever it is published, naming its members and never quoting them', async () => {
    const privateJwk = { ...key.privateJwk, use: 'sig', kid: key.thumbprint };
    const rsa = { kty: 'RSA', n: 'AQAB-n', e: 'AQAB', d: 'rsa-d-secret-value', p: 'rsa-p-secret', q: 'rsa-q-secret', dp: 'x1', dq: 'x2', qi: 'x3' };
    const cases: Array<[string, Record<string, MemoryDocument>, RegExp]> = [
      [
        'a key set that is the private JWK',
        { [KEYS]: doc(privateJwk) },
        /^The key set is itself a JWK, not a JWK Set, and carries the private member d: the private key is exposed/,
      ],
      ['a key set entry with d', { [KEYS]: doc({ keys: [privateJwk] }) }, /^keys\[0\] carries the private member d: the private key is exposed/],
      [
        'a key directory that is the private JWK',
        { [DIRECTORY]: doc(privateJwk, MEDIA_TYPES.keyDirectory) },
        /^The key directory is itself a JWK.*private key is exposed/,
      ],
      [
        'a key directory entry with d',
        { [DIRECTORY]: doc({ keys: [entry, privateJwk] }, MEDIA_TYPES.keyDirectory) },
        /^keys\[1\] of the key directory carries the private member d/,
      ],
      ['an RSA private key in the key set', { [KEYS]: doc({ keys: [entry, rsa] }) }, /^keys\[1\] carries the private members d, p, q, dp, dq, qi/],
    ];
    for (const [what, over, message] of cases) {
      const report = await run(over);
      expect(report.ok, what).toBe(false);
      const exposed = report.problems.filter((p) => p.code === P.keyPrivate);
      expect(exposed.map((p) => p.message).join('\n'), what).toMatch(message);
      const all = JSON.stringify(report);
      for (const secret of [key.privateJwk.d.slice(0, 8), key.privateJwk.d.slice(20, 28), 'rsa-d-secret', 'rsa-p-secret', 'rsa-q-secret'])
        expect(all, `${what} quotes ${secret}`).not.toContain(secret);
    }
  });
});
