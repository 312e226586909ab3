import { describe, expect, it } from 'vitest';
import { challengeEcho, createChallenge, credentialFor, parseCredential, serializeCredential } from '../../src/purchase/index.js';

/*
 * Optional members of a challenge and a credential (7.4, draft-httpauth-payment): on the wire only when present,
 * carried exactly when present; and a credential header read with the whitespace a field value may carry.
 */

const INPUT = { realm: 'platform.example', method: 'stripe', request: { amount: '500', currency: 'usd' }, createdAt: 1_789_732_800 } as const;

describe('the optional members of a challenge', () => {
  it('writes no opaque, digest or description a challenge was not given', () => {
    expect(Object.keys(createChallenge(INPUT)).sort()).toEqual(['expires', 'header', 'id', 'intent', 'method', 'realm', 'request']);
  });

  it('keeps the digest and description a challenge was given', () => {
    const challenge = createChallenge({ ...INPUT, digest: 'sha-256=:abc:', description: 'one call' });
    expect(challenge).toMatchObject({ digest: 'sha-256=:abc:', description: 'one call' });
  });

  it('binds the digest into the challenge id', () => {
    expect(createChallenge({ ...INPUT, digest: 'sha-256=:abc:' }).id).not.toBe(createChallenge(INPUT).id);
  });

  it('echoes no digest or description a challenge does not carry', () => {
    expect(Object.keys(challengeEcho(createChallenge(INPUT))).sort()).toEqual(['expires', 'header', 'id', 'intent', 'method', 'realm', 'request']);
  });
});

describe('the optional source of a credential', () => {
  it('writes no source a buyer did not give', () => {
    const credential = credentialFor(createChallenge(INPUT), { token: 'spt_1' });
    expect(Object.keys(credential).sort()).toEqual(['challenge', 'payload']);
  });

  it('reads no source a credential does not carry', () => {
    const parsed = parseCredential(serializeCredential(credentialFor(createChallenge(INPUT), { token: 'spt_1' })));
    expect(parsed.ok && Object.keys(parsed.credential).sort()).toEqual(['challenge', 'payload']);
  });

  it('reads a credential header with several spaces and tabs around it', () => {
    const value = serializeCredential(credentialFor(createChallenge(INPUT), { token: 'spt_1' }, 'did:example:buyer'));
    expect(parseCredential(` \t${value} \t `)).toMatchObject({ ok: true, credential: { source: 'did:example:buyer' } });
  });
});
