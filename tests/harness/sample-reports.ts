import type { Exchange } from '../../src/harness/exchange.js';
import { countVerdicts, type CheckResult, type RunReport } from '../../src/harness/results.js';

const SUITE = 'suites/7.3-signed-requests.test.ts';

/** A check as the reporter writes it; `overrides` change any member. */
export function check(name: string, requirements: string[], verdict: CheckResult['verdict'], overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    id: `signed.${name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}`,
    name,
    suite: SUITE,
    requirements,
    level: verdict === 'warn' ? 'SHOULD' : 'MUST',
    verdict,
    durationMs: 1.5,
    ...(verdict === 'not-run' ? { message: 'the target lacks clock-control' } : {}),
    ...overrides,
  };
}

/** A refused request: the platform answered 200 where 7.3 asks for 401. */
export function sampleExchange(): Exchange {
  return {
    request: {
      method: 'POST',
      url: 'https://platform.example/api/auth/cli/token',
      headers: [
        ['signature-agent', 'sig1="https://agents.example/a/alice/.well-known/jwks.json";type=jwks_uri'],
        ['authorization', 'Bearer [redacted]'],
        ['content-type', 'application/json'],
      ],
      body: '{"scope":"cli"}',
      bodyEncoding: 'utf8',
      bodyLength: 15,
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"token":"[redacted]"}',
      bodyEncoding: 'utf8',
      bodyLength: 22,
    },
  };
}

export function report(results: CheckResult[], overrides: Partial<RunReport> = {}): RunReport {
  return {
    tool: { name: 'agent-platform-conformance', version: '0.1.0' },
    runId: '2026-11-22T03-19-56-654Z-1',
    startedAt: '2026-11-22T03:19:56.654Z',
    finishedAt: '2026-11-22T03:19:57.548Z',
    target: { kind: 'in-process', description: 'embedded reference verifier' },
    selection: [],
    seed: 1,
    complete: true,
    counts: countVerdicts(results),
    results,
    harnessErrors: [],
    ...overrides,
  };
}

/** A run with one MUST failure carrying two exchanges (the last without a response), a pass, a warning and a skip. */
export function failingReport(): RunReport {
  const refused: Exchange = {
    request: { method: 'GET', url: 'https://agents.example/a/alice/.well-known/jwks.json', headers: [], body: '', bodyEncoding: 'utf8', bodyLength: 0 },
    response: null,
    note: 'connection refused',
  };
  return report([
    check('replayed-nonce: a nonce used twice is refused', ['AUTH-SIGNATURE-REPLAYED'], 'fail', {
      message: 'step 2 of 2: status 200, expected 401; error_code null, expected signature_replayed',
      exchanges: [sampleExchange(), refused],
    }),
    check('expired: a signature past its expiry is refused', ['AUTH-SIGNATURE-EXPIRED'], 'pass'),
    check('binary body', ['AUTH-CONTENT-DIGEST-MISMATCH'], 'warn', {
      message: 'the description should name the digest',
      exchanges: [{ ...sampleExchange(), request: { ...sampleExchange().request, body: 'AAEC/w==', bodyEncoding: 'base64', bodyLength: 9000 } }],
    }),
    check('skew: created 61 s ahead is refused', ['AUTH-SIGNATURE-EXPIRED', 'LIMIT-CLOCK-SKEW'], 'not-run'),
  ]);
}

/** A run the harness could not finish. */
export function incompleteReport(): RunReport {
  return report([check('expired: a signature past its expiry is refused', ['AUTH-SIGNATURE-EXPIRED'], 'pass')], {
    complete: false,
    harnessErrors: ['suites/7.3-signed-requests.test.ts: Cannot find module ../src/cases/run-case.js'],
  });
}

/** A run whose only check was skipped. */
export function notRunReport(): RunReport {
  return report([check('skew: created 61 s ahead is refused', ['LIMIT-CLOCK-SKEW'], 'not-run')], { selection: ['LIMIT-CLOCK-SKEW'] });
}
