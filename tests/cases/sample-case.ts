/** A valid case with every member the schema knows, as a fresh object each call so tests may break it. */
export function sampleCase(): Record<string, any> {
  return {
    id: 'key-set-redirect-refused',
    description: 'a key set answered with a redirect is unreachable',
    platform: { authority: 'platform.example', owner_keys: ['operator-key'], blocked_agents: ['https://blocked.example/a/x'] },
    now: 1800000000,
    documents: {
      'https://agents.example/a/alice/.well-known/jwks.json': {
        status: 302,
        headers: { location: 'https://elsewhere.example/jwks.json' },
        body: '',
        delay_ms: 0,
      },
    },
    registrations: { 'https://agents.example/a/alice': { thumbprints: ['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'] } },
    steps: [
      {
        at: 1800000000,
        client_address: '198.51.100.7',
        documents: { 'https://agents.example/a/alice/.well-known/agent.json': { status: 200, body_base64: 'e30=' } },
        request: {
          method: 'POST',
          url: 'https://platform.example/api/auth/cli/token',
          headers: [['signature-agent', 'sig1="https://agents.example/a/alice/.well-known/jwks.json";type=jwks_uri']],
          body_base64: '',
        },
        expect: { ok: false, status: 401, error_code: 'key_set_unreachable' },
      },
    ],
  };
}

/** A vectors file (Wycheproof layout) holding the given cases in one group. */
export function sampleVectors(cases: Array<Record<string, any>>): Record<string, any> {
  return {
    algorithm: 'web-bot-auth',
    schema: 'signed-requests.schema.json',
    generatorVersion: '0.1.0',
    numberOfTests: cases.length,
    notes: { KeySetFetch: 'the key set read fails under the fetch rules', Valid: 'an accepted request' },
    testGroups: [{ comment: 'key set reads', cases }],
  };
}

export function asText(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
