import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

const AGENT = 'https://agents.example/a/alice';
const KEY_SET = `${AGENT}/.well-known/jwks.json`;
const CARD = `${AGENT}/.well-known/agent.json`;
const TOKEN_URL = 'https://platform.example/api/auth/cli/token';
const NOW = 1800000000;
const BODY = '{"hello":"world"}';

let cwd: string;
let signedHeaders: Array<[string, string]>;
let served: Record<string, { status: number; headers: Record<string, string>; body: string }>;

/** keygen and sign through the command line itself: the case files below hold what they wrote. */
beforeAll(async () => {
  cwd = await tempDir();
  expect((await runCli(['keygen', '--agent-url', AGENT, '--out', 'alice'], { cwd })).code).toBe(0);
  await writeFile(join(cwd, 'body.json'), BODY);
  const signed = await runCli(
    ['sign', '--key', 'alice/private-key.jwk.json', '--agent-url', AGENT, '--method', 'POST', '--url', TOKEN_URL, '--body', 'body.json', '--json'],
    { cwd, now: NOW },
  );
  expect(signed.code).toBe(0);
  signedHeaders = Object.entries((JSON.parse(signed.stdout) as { headers: Record<string, string> }).headers);
  const json = { 'content-type': 'application/json' };
  served = {
    [KEY_SET]: { status: 200, headers: json, body: await readFile(join(cwd, 'alice', 'jwks.json'), 'utf8') },
    [CARD]: { status: 200, headers: json, body: await readFile(join(cwd, 'alice', 'agent.json'), 'utf8') },
  };
});

function signedStep(expect?: Record<string, unknown>): Record<string, unknown> {
  return {
    request: { method: 'POST', url: TOKEN_URL, headers: [['content-type', 'application/json'], ...signedHeaders], body: BODY },
    ...(expect ? { expect } : {}),
  };
}

function aCase(id: string, steps: unknown[], documents: unknown = served): Record<string, unknown> {
  return { id, description: `the ${id} case`, platform: { authority: 'platform.example' }, now: NOW + 5, documents, steps };
}

async function verify(value: unknown, ...flags: string[]) {
  const file = `case-${Math.random().toString(36).slice(2)}.json`;
  await writeFile(join(cwd, file), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return { file, ...(await runCli(['verify', file, ...flags], { cwd })) };
}

describe('verify', () => {
  it('accepts a request signed with keygen and sign output, then refuses its replay', async () => {
    const c = aCase('accepted-then-replayed', [
      signedStep({ ok: true, status: 200, agent_url: AGENT }),
      signedStep({ ok: false, status: 401, error_code: 'signature_replayed' }),
    ]);
    const { code, stdout, stderr } = await verify(c);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('case accepted-then-replayed: the accepted-then-replayed case');
    expect(lines[1]).toBe(`  step 1: accepted, agent ${AGENT} [matches expect]`);
    expect(lines[2]).toMatch(/^ {2}step 2: refused 401 signature_replayed — \S.* \[matches expect\]$/);
    expect(lines[3]).toBe('1 case, 2 steps: 2 compared, all match expect');
  });

  it('prints { "steps": [...] } with the members docs/contracts.md names, with --json', async () => {
    const redirect = { [KEY_SET]: { status: 302, headers: { location: 'https://elsewhere.example/jwks.json' }, body: '' } };
    const { code, stdout } = await verify(
      aCase('key-set-redirect-refused', [signedStep({ ok: false, status: 401, error_code: 'key_set_unreachable' })], redirect),
      '--json',
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { steps: Array<Record<string, unknown>> };
    expect(Object.keys(out)).toEqual(['steps']);
    expect(out.steps).toHaveLength(1);
    const step = out.steps[0]!;
    expect(Object.keys(step).slice(0, 6)).toEqual(['ok', 'status', 'error_code', 'agent_url', 'headers', 'matches_expect']);
    expect(step).toMatchObject({ ok: false, status: 401, error_code: 'key_set_unreachable', matches_expect: true });
    expect(Object.keys(step.headers as object).every((name) => name === name.toLowerCase())).toBe(true);
    expect(step.headers).toHaveProperty('www-authenticate');
  });

  it('exits 1 and says which expect members differ', async () => {
    const { code, stdout } = await verify(aCase('wrong-expectation', [signedStep({ ok: false, error_code: 'signature_expired' })]));
    expect(code).toBe(1);
    expect(stdout).toContain(`  step 1: accepted, agent ${AGENT} [DIFFERS from expect]\n`);
    expect(stdout).toMatch(/\n {4}ok: expected false, got true\n/);
    expect(stdout).toMatch(/\n {4}error_code: expected "signature_expired", got null\n/);
    expect(stdout).toMatch(/1 case, 1 step: 1 of 1 compared differs from expect\n$/);

    const json = await verify(aCase('wrong-expectation', [signedStep({ ok: false })]), '--json');
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { steps: Array<{ matches_expect: boolean }> }).steps[0]!.matches_expect).toBe(false);
  });

  it('reports a step without expect as not compared, and exits 0', async () => {
    const { code, stdout } = await verify(aCase('no-expect', [{ request: { method: 'GET', url: 'https://platform.example/api/x', headers: [] } }]), '--json');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { steps: Array<Record<string, unknown>> }).steps[0]).toMatchObject({
      ok: false,
      error_code: 'missing_credential',
      matches_expect: null,
    });
  });

  it('runs every case of a vectors file and prints { "cases": [{ "id", "steps" }] }', async () => {
    const unsigned = { request: { method: 'GET', url: 'https://platform.example/api/x', headers: [] }, expect: { error_code: 'missing_credential' } };
    const vectors = {
      schema: 'signed-requests.schema.json',
      generatorVersion: '0.1.0',
      numberOfTests: 2,
      notes: { Valid: 'accepted', NoCredential: 'no credential at all' },
      testGroups: [
        { comment: 'signed', cases: [{ ...aCase('accepted', [signedStep({ ok: true })]), flags: ['Valid'] }] },
        { comment: 'unsigned', cases: [{ ...aCase('unsigned', [unsigned]), flags: ['NoCredential'] }] },
      ],
    };
    const { code, stdout } = await verify(vectors, '--json');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { cases: Array<{ id: string; steps: Array<Record<string, unknown>> }> };
    expect(Object.keys(out)).toEqual(['cases']);
    expect(out.cases.map((c) => [c.id, c.steps.map((s) => s.matches_expect)])).toEqual([
      ['accepted', [true]],
      ['unsigned', [true]],
    ]);
    const human = await verify(vectors);
    expect(human.stdout).toMatch(/\n2 cases, 2 steps: 2 compared, all match expect\n$/);
  });

  it('exits 2 and names the member at fault for a malformed case file', async () => {
    const good = () => aCase('malformed', [signedStep({ ok: true })]) as Record<string, any>;
    const withoutRequest = good();
    delete withoutRequest.steps[0].request;
    const notAPair = good();
    notAPair.steps[0].request.headers.push(['x-lonely']);
    const unknownCode = good();
    unknownCode.steps[0].expect = { ok: false, error_code: 'nonce_reused' };
    const cases: Array<[unknown, string]> = [
      [
        '{\n  "id": "x",\n  "steps": [\n    {"request": }\n  ]\n}',
        "not valid JSON at line 4, column 17: expected a value (object, array, string, number, true, false or null), found '}'",
      ],
      [withoutRequest, 'steps/0/request: missing (a step must have "request")'],
      [notAPair, `steps/0/request/headers/${notAPair.steps[0].request.headers.length - 1}: each header must be a [name, value] pair of strings`],
      [unknownCode, 'steps/0/expect/error_code: "nonce_reused" is not an error_code of spec section 7.3'],
    ];
    for (const [value, message] of cases) {
      const { file, code, stdout, stderr } = await verify(value);
      expect(code, message).toBe(2);
      expect(stdout, message).toBe('');
      expect(stderr, message).toBe(`agent-platform-conformance: ${file}: ${message.startsWith('not valid JSON') ? '(top level): ' : ''}${message}\n`);
      expect(stderr).not.toMatch(STACK_LINE);
    }
  });

  it('prints the problems as one JSON document with --json, still exiting 2', async () => {
    const withoutRequest = aCase('malformed', [signedStep({ ok: true })]) as Record<string, any>;
    delete withoutRequest.steps[0].request;
    const { file, code, stdout, stderr } = await verify(withoutRequest, '--json');
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        message: `${file}: steps/0/request: missing (a step must have "request")`,
        problems: [{ pointer: '/steps/0/request', message: 'missing (a step must have "request")' }],
      },
    });
    expect(stderr).toBe(`agent-platform-conformance: ${file}: steps/0/request: missing (a step must have "request")\n`);
    const broken = await verify('{"id": "x",}', '--json');
    expect(broken.code).toBe(2);
    expect((JSON.parse(broken.stdout) as { error: { message: string } }).error.message).toMatch(/not valid JSON at line 1, column 12/);
    const missing = await runCli(['verify', 'nowhere.json', '--json'], { cwd });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { message: 'cannot read case file "nowhere.json": no such file', problems: [] } });
  });

  it('runs the examples its --help gives, as written, from a checkout', async () => {
    const help = await runCli(['verify', '--help']);
    const examples = help.stdout.split('\n').filter((l) => l.trim().startsWith('agent-platform-conformance verify '));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const argv = example.trim().split(/\s+/).slice(1);
      const run = await runCli(argv, { cwd: PROJECT_ROOT });
      expect(run.stderr, example).toBe('');
      expect(run.code, example).toBe(0);
    }
  }, 120_000);

  it('exits 2 for a case file that is not there', async () => {
    const { code, stderr } = await runCli(['verify', 'nowhere.json'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe('agent-platform-conformance: cannot read case file "nowhere.json": no such file\n');
  });
});
