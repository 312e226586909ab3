import { describe, expect, it } from 'vitest';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { acceptSignatureValue, bearerChallenge, refuse } from '../../src/verifier/refusal.js';

/**
 * 7.3 refusals, built directly: the WWW-Authenticate challenge (an RFC 9110 quoted-string for error_description),
 * Accept-Signature naming content-digest only when the request has a body, Cache-Control: no-store, and the agent URL.
 */
describe('bearerChallenge', () => {
  it('quotes the description', () => {
    expect(bearerChallenge('The request carries no credential.')).toBe(
      'Bearer realm="service", error="invalid_token", error_description="The request carries no credential."',
    );
  });

  it('escapes double quotes and backslashes', () => {
    expect(bearerChallenge('covers "signature-agent";key="sig1" and a \\ backslash')).toBe(
      'Bearer realm="service", error="invalid_token", error_description="covers \\"signature-agent\\";key=\\"sig1\\" and a \\\\ backslash"',
    );
  });

  it('replaces characters outside visible ASCII with ?', () => {
    expect(bearerChallenge('café\tok\n', 'plateforme')).toBe('Bearer realm="plateforme", error="invalid_token", error_description="caf??ok?"');
  });
});

describe('acceptSignatureValue (5.2)', () => {
  it('without a body', () => {
    expect(acceptSignatureValue(false)).toBe('sig1=("@method" "@authority" "@path" "@query" "signature-agent";key="sig1");tag="web-bot-auth"');
  });

  it('with a body, content-digest too', () => {
    expect(acceptSignatureValue(true)).toBe('sig1=("@method" "@authority" "@path" "@query" "content-digest" "signature-agent";key="sig1");tag="web-bot-auth"');
  });
});

describe('refuse', () => {
  it('a code that asks for a signature carries Accept-Signature, Cache-Control no-store and the agent URL', () => {
    const refusal = refuse(AUTH_CODES.missing_credential, 'No credential.', { hasBody: true, agentUrl: 'https://agents.example/a' });
    expect(refusal.headers).toStrictEqual({
      'www-authenticate': 'Bearer realm="service", error="invalid_token", error_description="No credential."',
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'accept-signature': 'sig1=("@method" "@authority" "@path" "@query" "content-digest" "signature-agent";key="sig1");tag="web-bot-auth"',
    });
    expect(refusal.agentUrl).toBe('https://agents.example/a');
    expect(refusal.status).toBe(401);
    expect(refusal.body).toStrictEqual({ error: 'Unauthorized', error_code: 'missing_credential', error_description: 'No credential.' });
  });

  it('without a body, Accept-Signature leaves content-digest out; without an agent URL, agentUrl is null', () => {
    const refusal = refuse(AUTH_CODES.missing_credential, 'No credential.', { hasBody: false });
    expect(refusal.headers['accept-signature']).toBe('sig1=("@method" "@authority" "@path" "@query" "signature-agent";key="sig1");tag="web-bot-auth"');
    expect(refusal.headers['cache-control']).toBe('no-store');
    expect(refusal.agentUrl).toBeNull();
  });

  it('a code that does not ask for a signature carries no Accept-Signature', () => {
    const refusal = refuse(AUTH_CODES.platform_token_invalid, 'Expired.', { hasBody: false });
    expect(refusal.headers).toStrictEqual({
      'www-authenticate': 'Bearer realm="service", error="invalid_token", error_description="Expired."',
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
  });
});
