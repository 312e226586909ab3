import { describe, expect, it } from 'vitest';
import { SIGNATURE_AGENT_TYPES } from '../../src/spec/wire.js';
import { AGENT_URL_WHY } from '../../src/verifier/messages.js';
import { identityFromMember } from '../../src/verifier/signature-agent.js';

/**
 * The Signature-Agent member value (5.2): an https key set URL ending in /.well-known/jwks.json (no type or
 * type=jwks_uri), a card URL ending in /.well-known/agent.json (type=cimd), or an origin (type=directory). Every
 * derived URL below is written out by hand from the spec's well-known paths, never computed by the code under test.
 * Each test uses its own host: the verifier memoises answers per (value, type, allowInsecure).
 */
const { jwksUri, cimd, directory } = SIGNATURE_AGENT_TYPES;

describe('a Signature-Agent member naming a key set URL', () => {
  it('derives the agent URL, card URL and key set URL from https://…/.well-known/jwks.json without a type', () => {
    expect(identityFromMember('https://plain.agent.example/a/.well-known/jwks.json', null, false)).toStrictEqual({
      ok: true,
      identity: {
        type: 'jwks_uri',
        identifier: 'https://plain.agent.example/a/.well-known/jwks.json',
        agentUrl: 'https://plain.agent.example/a',
        cardUrl: 'https://plain.agent.example/a/.well-known/agent.json',
        keySetUrl: 'https://plain.agent.example/a/.well-known/jwks.json',
        cardKeySetUrls: ['https://plain.agent.example/a/.well-known/jwks.json'],
      },
    });
  });

  it('reads type=jwks_uri as the same form', () => {
    const result = identityFromMember('https://typed.agent.example/.well-known/jwks.json', jwksUri, false);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.identity.keySetUrl).toBe('https://typed.agent.example/.well-known/jwks.json');
  });

  it('refuses a URL that does not end in /.well-known/jwks.json', () => {
    expect(identityFromMember('https://suffix.agent.example/keys.json', null, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notKeySetUrl });
  });

  it('refuses a type it does not know, even when the value is a valid key set URL', () => {
    expect(identityFromMember('https://unknown-type.agent.example/.well-known/jwks.json', 'bogus', false)).toStrictEqual({
      ok: false,
      why: AGENT_URL_WHY.unknownType('bogus'),
    });
  });

  it('refuses a value that is not an absolute URL', () => {
    expect(identityFromMember('/.well-known/jwks.json', null, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notAbsolute });
  });

  it('refuses a value not written in normalized form, naming the normalized spelling', () => {
    expect(identityFromMember('https://Upper.Agent.Example/.well-known/jwks.json', null, false)).toStrictEqual({
      ok: false,
      why: AGENT_URL_WHY.notNormalized('https://upper.agent.example/.well-known/jwks.json'),
    });
    expect(identityFromMember('https://port.agent.example:443/.well-known/jwks.json', null, false)).toStrictEqual({
      ok: false,
      why: AGENT_URL_WHY.notNormalized('https://port.agent.example/.well-known/jwks.json'),
    });
  });

  it('answers by type: one value asked with two types gets two answers', () => {
    const value = 'https://two-types.agent.example/.well-known/jwks.json';
    expect(identityFromMember(value, cimd, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notCardUrl });
    expect(identityFromMember(value, directory, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.directoryNotOrigin });
    expect(identityFromMember(value, jwksUri, false).ok).toBe(true);
  });
});

describe('user information, query and fragment are refused', () => {
  it.each([
    ['user and password', 'https://user:secret@userinfo1.agent.example/.well-known/jwks.json'],
    ['a user name alone', 'https://user@userinfo2.agent.example/.well-known/jwks.json'],
    ['a password alone', 'https://:secret@userinfo3.agent.example/.well-known/jwks.json'],
  ])('%s', (_name, value) => {
    expect(identityFromMember(value, null, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.userInfo });
  });

  it.each([
    ['a query', 'https://query1.agent.example/.well-known/jwks.json?v=1'],
    ['an empty query (a bare ?)', 'https://query2.agent.example/.well-known/jwks.json?'],
    ['a fragment', 'https://fragment1.agent.example/.well-known/jwks.json#k'],
    ['an empty fragment (a bare #)', 'https://fragment2.agent.example/.well-known/jwks.json#'],
  ])('%s', (_name, value) => {
    expect(identityFromMember(value, null, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.queryOrFragment });
  });

  it('a query on a directory origin', () => {
    expect(identityFromMember('https://query3.agent.example/?x', directory, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.queryOrFragment });
  });
});

describe('http only when insecure agents are allowed', () => {
  it('refuses http when not allowed', () => {
    expect(identityFromMember('http://insecure1.agent.example/.well-known/jwks.json', null, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notHttps });
  });

  it('accepts http when allowed', () => {
    const result = identityFromMember('http://insecure2.agent.example/.well-known/jwks.json', null, true);
    expect(result).toStrictEqual({
      ok: true,
      identity: {
        type: 'jwks_uri',
        identifier: 'http://insecure2.agent.example/.well-known/jwks.json',
        agentUrl: 'http://insecure2.agent.example',
        cardUrl: 'http://insecure2.agent.example/.well-known/agent.json',
        keySetUrl: 'http://insecure2.agent.example/.well-known/jwks.json',
        cardKeySetUrls: ['http://insecure2.agent.example/.well-known/jwks.json'],
      },
    });
  });

  it('allowing insecure agents admits http only, not any other scheme', () => {
    expect(identityFromMember('ftp://insecure3.agent.example/.well-known/jwks.json', null, true)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notHttps });
    expect(identityFromMember('ws://insecure4.agent.example/.well-known/jwks.json', null, true)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notHttps });
  });

  it('https stays accepted when insecure agents are allowed', () => {
    expect(identityFromMember('https://insecure5.agent.example/.well-known/jwks.json', null, true).ok).toBe(true);
  });
});

describe('type=directory names an origin', () => {
  const expected = {
    ok: true,
    identity: {
      type: 'directory',
      agentUrl: 'https://dir.agent.example',
      cardUrl: 'https://dir.agent.example/.well-known/agent.json',
      keySetUrl: 'https://dir.agent.example/.well-known/http-message-signatures-directory',
      cardKeySetUrls: ['https://dir.agent.example/.well-known/jwks.json', 'https://dir.agent.example/.well-known/http-message-signatures-directory'],
    },
  };

  it('written without a trailing slash', () => {
    expect(identityFromMember('https://dir.agent.example', directory, false)).toStrictEqual({
      ...expected,
      identity: { ...expected.identity, identifier: 'https://dir.agent.example' },
    });
  });

  it('written with a trailing slash (READING-DIRECTORY-TRAILING-SLASH)', () => {
    expect(identityFromMember('https://dir.agent.example/', directory, false)).toStrictEqual({
      ...expected,
      identity: { ...expected.identity, identifier: 'https://dir.agent.example/' },
    });
  });

  it.each([
    ['a path', 'https://dir2.agent.example/a'],
    ['a key set URL', 'https://dir3.agent.example/.well-known/jwks.json'],
    ['an upper-case host', 'https://DIR4.agent.example'],
  ])('refuses %s', (_name, value) => {
    expect(identityFromMember(value, directory, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.directoryNotOrigin });
  });
});

describe('type=cimd names a card URL', () => {
  it('derives the agent URL and the key set URL the card may name; the card names the key set itself', () => {
    expect(identityFromMember('https://cimd.agent.example/a/.well-known/agent.json', cimd, false)).toStrictEqual({
      ok: true,
      identity: {
        type: 'cimd',
        identifier: 'https://cimd.agent.example/a/.well-known/agent.json',
        agentUrl: 'https://cimd.agent.example/a',
        cardUrl: 'https://cimd.agent.example/a/.well-known/agent.json',
        keySetUrl: null,
        cardKeySetUrls: ['https://cimd.agent.example/a/.well-known/jwks.json'],
      },
    });
  });

  it('refuses a value that is not a card URL', () => {
    expect(identityFromMember('https://cimd2.agent.example/card.json', cimd, false)).toStrictEqual({ ok: false, why: AGENT_URL_WHY.notCardUrl });
  });

  it('refuses a card URL not in normalized form', () => {
    expect(identityFromMember('https://cimd3.agent.example/./.well-known/agent.json', cimd, false)).toStrictEqual({
      ok: false,
      why: AGENT_URL_WHY.notNormalized('https://cimd3.agent.example/.well-known/agent.json'),
    });
  });
});
