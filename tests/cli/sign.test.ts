import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PEER_VECTORS, REFERENCE_DATA } from '../paths.js';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

interface SignerVectors {
  agentUrl: string;
  request: { method: string; url: string; body: string };
  params: { created: number; expires: number; nonce: string };
  vectors: Array<{ id: string; headers: Record<string, string>; signatureBaseLines: string[] }>;
}

const rfc9421 = JSON.parse(readFileSync(`${REFERENCE_DATA}/rfc9421-b26.json`, 'utf8')) as { key: { privateJwk: Record<string, string> } };
const signer = JSON.parse(readFileSync(`${PEER_VECTORS}/signer-vectors.json`, 'utf8')) as SignerVectors;
const typed = signer.vectors.find((v) => v.id === 'dictionary-typed')!;

let dir: string;

beforeAll(async () => {
  dir = await tempDir();
  // The RFC 9421 B.1.4 key as that file spells it (its kid is not the thumbprint and must not matter).
  await writeFile(join(dir, 'b14.jwk.json'), JSON.stringify(rfc9421.key.privateJwk));
  await writeFile(join(dir, 'body.json'), signer.request.body);
  const { d: _d, ...publicJwk } = rfc9421.key.privateJwk;
  await writeFile(join(dir, 'public.jwk.json'), JSON.stringify(publicJwk));
});

/** The POST /api/auth/cli/token vector's inputs as sign arguments. */
function vectorArgs(...extra: string[]): string[] {
  return [
    'sign',
    '--key',
    'b14.jwk.json',
    '--agent-url',
    signer.agentUrl,
    '--method',
    signer.request.method,
    '--url',
    signer.request.url,
    '--body',
    'body.json',
    '--created',
    String(signer.params.created),
    '--expires',
    String(signer.params.expires),
    '--nonce',
    signer.params.nonce,
    ...extra,
  ];
}

describe('sign', () => {
  it("prints the dictionary-typed vector's headers exactly, as name: value lines", async () => {
    const { code, stdout, stderr } = await runCli(vectorArgs(), { cwd: dir });
    expect(code).toBe(0);
    expect(stdout).toBe(
      Object.entries(typed.headers)
        .map(([name, value]) => `${name}: ${value}\n`)
        .join(''),
    );
    expect(stderr).toBe('note: this is the RFC 9421 test key; platforms refuse it in a key set (spec 2.4)\n');
  });

  it("prints the headers and the vector's signature base lines with --json", async () => {
    const { code, stdout } = await runCli(vectorArgs('--json'), { cwd: dir });
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { headers: Record<string, string>; signature_base: string[] };
    expect(Object.keys(out)).toEqual(['headers', 'signature_base']);
    expect(out.headers).toEqual(typed.headers);
    expect(out.signature_base).toEqual([typed.signatureBaseLines.join('\n')]);
  });

  it('puts <agent-url>/.well-known/jwks.json in Signature-Agent, without a doubled slash', async () => {
    const { stdout } = await runCli(
      vectorArgs('--json').map((a) => (a === signer.agentUrl ? `${a}/` : a)),
      { cwd: dir },
    );
    expect((JSON.parse(stdout) as { headers: Record<string, string> }).headers['signature-agent']).toBe(typed.headers['signature-agent']);
  });

  it('defaults created to now, expires to created + 60 and the nonce to a fresh random one', async () => {
    const args = ['sign', '--key', 'b14.jwk.json', '--agent-url', signer.agentUrl, '--method', 'GET', '--url', 'https://platform.example/api/x?y=1'];
    const first = await runCli(args, { cwd: dir, now: 1800000000 });
    const second = await runCli(args, { cwd: dir, now: 1800000000 });
    expect(first.code).toBe(0);
    const input = /^signature-input: (.*)$/m.exec(first.stdout)![1]!;
    expect(input).toContain(';created=1800000000;expires=1800000060;');
    expect(input).toMatch(/;nonce="[A-Za-z0-9+/]{86}=="/);
    expect(first.stdout).not.toMatch(/^content-digest:/m);
    const nonceOf = (text: string) => /nonce="([^"]+)"/.exec(text)![1];
    expect(nonceOf(second.stdout)).not.toBe(nonceOf(first.stdout));
  });

  it('signs with a second key as sig2, one nonce per key', async () => {
    const { code, stdout } = await runCli(vectorArgs('--key', 'b14.jwk.json', '--nonce', 'second-nonce', '--json'), { cwd: dir });
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { headers: Record<string, string>; signature_base: string[] };
    expect(out.headers['signature-agent']).toBe(
      'sig1="https://agent.example/agents/mini/.well-known/jwks.json";type=jwks_uri, sig2="https://agent.example/agents/mini/.well-known/jwks.json";type=jwks_uri',
    );
    expect(out.headers['signature-input']).toMatch(/^sig1=\(.*"signature-agent";key="sig1"\).*, sig2=\(.*"signature-agent";key="sig2"\).*nonce="second-nonce"/);
    expect(out.signature_base).toHaveLength(2);
  });

  it('covers the --header fields', async () => {
    const { code, stdout } = await runCli(vectorArgs('--header', 'Content-Type: application/json', '--json'), { cwd: dir });
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { headers: Record<string, string>; signature_base: string[] };
    expect(out.headers['signature-input']).toContain('"content-digest" "content-type" "signature-agent";key="sig1"');
    expect(out.signature_base[0]).toContain('\n"content-type": application/json\n');
  });

  it('exits 2, naming the problem, for bad arguments and inputs', async () => {
    const cases: Array<[string[], string]> = [
      [['sign', '--agent-url', signer.agentUrl, '--method', 'POST', '--url', signer.request.url], 'sign needs --key JWK_FILE'],
      [vectorArgs().filter((a, i, all) => a !== '--method' && all[i - 1] !== '--method'), 'sign needs --method M'],
      [vectorArgs('--created', 'soon'), '--created is given more than once'],
      [vectorArgs().map((a) => (a === String(signer.params.created) ? 'soon' : a)), '--created must be a whole number of seconds, not "soon"'],
      [vectorArgs('--key', 'b14.jwk.json'), 'give one --nonce per --key (2 keys, 1 nonce)'],
      [vectorArgs('--header', 'no colon'), `--header must look like 'Name: value', not "no colon"`],
      [vectorArgs('--header', 'Signature-Input: sig1=()'), '--header Signature-Input: sign writes this header itself'],
      [
        vectorArgs().map((a) => (a === signer.agentUrl ? `${a}/.well-known/jwks.json` : a)),
        `--agent-url is the agent URL itself; leave off /.well-known/jwks.json (try ${signer.agentUrl})`,
      ],
      [
        vectorArgs().map((a) => (a === signer.request.url ? '/api/auth/cli/token' : a)),
        '--url must be an absolute URL such as https://platform.example/api/auth/cli/token, not "/api/auth/cli/token"',
      ],
      [vectorArgs().map((a) => (a === 'b14.jwk.json' ? 'missing.json' : a)), 'cannot read --key file "missing.json": no such file'],
      [
        vectorArgs().map((a) => (a === 'b14.jwk.json' ? 'public.jwk.json' : a)),
        '--key file "public.jwk.json" holds a public key; sign needs the private key (the member d)',
      ],
      [
        vectorArgs().map((a) => (a === 'b14.jwk.json' ? 'body.json' : a)),
        '--key file "body.json" is not an Ed25519 key (kty undefined, crv undefined; expected OKP and Ed25519)',
      ],
      [vectorArgs().map((a) => (a === 'body.json' ? 'nowhere.bin' : a)), 'cannot read --body file "nowhere.bin": no such file'],
    ];
    for (const [argv, message] of cases) {
      const { code, stdout, stderr } = await runCli(argv, { cwd: dir });
      expect(code, message).toBe(2);
      expect(stdout, message).toBe('');
      expect(stderr.split('\n')[0], message).toBe(`agent-platform-conformance: ${message}`);
      expect(stderr).not.toMatch(STACK_LINE);
    }
  });

  it('names the line and column of a key file that is not JSON', async () => {
    await writeFile(join(dir, 'broken.jwk.json'), '{\n  "kty": "OKP",\n}');
    const { code, stderr } = await runCli(
      vectorArgs().map((a) => (a === 'b14.jwk.json' ? 'broken.jwk.json' : a)),
      { cwd: dir },
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      'agent-platform-conformance: --key file "broken.jwk.json" is not valid JSON: line 3, column 1: expected a member name in double quotes, found \'}\'\n',
    );
  });
});
