import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, any>;

describe('keygen', () => {
  it('writes the private key (mode 0600), the key set and the card under --out', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await runCli(['keygen', '--agent-url', 'https://agents.example/a/alice', '--out', 'alice'], { cwd });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const dir = join(cwd, 'alice');

    const privateKey = await readJson(join(dir, 'private-key.jwk.json'));
    expect((await stat(join(dir, 'private-key.jwk.json'))).mode & 0o777).toBe(0o600);
    expect(Object.keys(privateKey).sort()).toEqual(['crv', 'd', 'kid', 'kty', 'x']);
    expect(privateKey).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });

    const jwks = await readJson(join(dir, 'jwks.json'));
    expect(jwks).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: privateKey.x, kid: privateKey.kid, use: 'sig' }] });
    expect(Object.keys(jwks.keys[0])).toEqual(['kty', 'crv', 'x', 'kid', 'use']);
    // An independent RFC 7638 implementation agrees that the kid is the thumbprint.
    expect(jwks.keys[0].kid).toBe(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: privateKey.x }, 'sha256'));

    expect(await readJson(join(dir, 'agent.json'))).toEqual({
      client_id: 'https://agents.example/a/alice/.well-known/agent.json',
      url: 'https://agents.example/a/alice',
      jwks_uri: 'https://agents.example/a/alice/.well-known/jwks.json',
    });
    expect(stdout).toContain(`key id (RFC 7638 thumbprint): ${privateKey.kid}`);
    expect(stdout).toContain('serve it at https://agents.example/a/alice/.well-known/jwks.json');
  });

  it('drops a trailing slash from the agent URL in every self-naming field', async () => {
    const cwd = await tempDir();
    expect((await runCli(['keygen', '--agent-url', 'https://agents.example/a/bob/', '--out', '.'], { cwd })).code).toBe(0);
    expect(await readJson(join(cwd, 'agent.json'))).toEqual({
      client_id: 'https://agents.example/a/bob/.well-known/agent.json',
      url: 'https://agents.example/a/bob',
      jwks_uri: 'https://agents.example/a/bob/.well-known/jwks.json',
    });
  });

  it('prints one JSON document with --json', async () => {
    const cwd = await tempDir();
    const { code, stdout } = await runCli(['keygen', '--agent-url', 'https://agents.example', '--out', 'k', '--json'], { cwd });
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Record<string, any>;
    expect(out).toMatchObject({
      agent_url: 'https://agents.example',
      key_set_url: 'https://agents.example/.well-known/jwks.json',
      card_url: 'https://agents.example/.well-known/agent.json',
      files: { private_key: join(cwd, 'k', 'private-key.jwk.json'), key_set: join(cwd, 'k', 'jwks.json'), card: join(cwd, 'k', 'agent.json') },
    });
    expect(out.kid).toBe((await readJson(join(cwd, 'k', 'jwks.json'))).keys[0].kid);
  });

  it('refuses to overwrite an existing private key, and leaves every file as it was', async () => {
    const cwd = await tempDir();
    expect((await runCli(['keygen', '--agent-url', 'https://agents.example/a/alice', '--out', 'alice'], { cwd })).code).toBe(0);
    const before = await Promise.all(['private-key.jwk.json', 'jwks.json', 'agent.json'].map((f) => readFile(join(cwd, 'alice', f), 'utf8')));
    const { code, stdout, stderr } = await runCli(['keygen', '--agent-url', 'https://agents.example/a/other', '--out', 'alice'], { cwd });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^agent-platform-conformance: refusing to overwrite .*private-key\.jwk\.json, .*jwks\.json, .*agent\.json; remove them or choose another --out\n$/,
    );
    const after = await Promise.all(['private-key.jwk.json', 'jwks.json', 'agent.json'].map((f) => readFile(join(cwd, 'alice', f), 'utf8')));
    expect(after).toEqual(before);
  });

  it('refuses when only the private key is there', async () => {
    const cwd = await tempDir();
    await mkdir(join(cwd, 'k'));
    await writeFile(join(cwd, 'k', 'private-key.jwk.json'), '{}');
    const { code, stderr } = await runCli(['keygen', '--agent-url', 'https://agents.example', '--out', 'k'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe(`agent-platform-conformance: refusing to overwrite ${join(cwd, 'k', 'private-key.jwk.json')}; remove it or choose another --out\n`);
    expect(await readFile(join(cwd, 'k', 'private-key.jwk.json'), 'utf8')).toBe('{}');
  });

  it('exits 2, naming the problem, for bad arguments', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'a-file'), '');
    const cases: Array<[string[], string]> = [
      [['keygen', '--out', 'x'], 'keygen needs --agent-url URL'],
      [['keygen', '--agent-url', 'https://agents.example'], 'keygen needs --out DIR'],
      [
        ['keygen', '--agent-url', 'agents.example/a', '--out', 'x'],
        '--agent-url must be an absolute URL such as https://agents.example/a/alice, not "agents.example/a"',
      ],
      [['keygen', '--agent-url', 'ftp://agents.example/a', '--out', 'x'], '--agent-url must be an https URL, not ftp:'],
      [['keygen', '--agent-url', 'https://agents.example/a?x=1', '--out', 'x'], '--agent-url must not carry a query or fragment'],
      [
        ['keygen', '--agent-url', 'https://agents.example/a/.well-known/agent.json', '--out', 'x'],
        '--agent-url is the agent URL itself; leave off /.well-known/agent.json (try https://agents.example/a)',
      ],
      [['keygen', '--agent-url', 'https://agents.example', '--out', 'a-file'], '--out "a-file" is a file, not a directory'],
    ];
    for (const [argv, message] of cases) {
      const { code, stderr } = await runCli(argv, { cwd });
      expect(code, message).toBe(2);
      expect(stderr.split('\n')[0], message).toBe(`agent-platform-conformance: ${message}`);
      expect(stderr).not.toMatch(STACK_LINE);
    }
  });
});
