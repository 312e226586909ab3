import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

/** Bad input of any kind is exit 2 naming what is wrong: never a harness error, never a stack trace, never a hang. */
let cwd: string;
beforeAll(async () => {
  cwd = await tempDir();
  expect((await runCli(['keygen', '--agent-url', 'https://agents.example/a/alice', '--out', 'alice'], { cwd })).code).toBe(0);
  await writeFile(join(cwd, 'deep.json'), '['.repeat(100_000));
  await writeFile(join(cwd, 'a-file'), 'not a folder');
  await mkdir(join(cwd, 'rsa-keys'));
  await writeFile(join(cwd, 'rsa-keys', 'ed25519.jwk.json'), JSON.stringify({ kty: 'RSA', n: 'AQAB', e: 'AQAB' }));
  await mkdir(join(cwd, 'huge-widget'));
  await writeFile(join(cwd, 'huge-widget', 'index.html'), PAGE('<p>hi</p>'));
  // Sparse: 2 GB to stat and read, nothing on disk.
  await writeFile(join(cwd, 'huge-widget', 'disk.img'), '');
  await truncate(join(cwd, 'huge-widget', 'disk.img'), 2 * 1024 ** 3);
  await mkdir(join(cwd, 'nested-widget'));
  await writeFile(join(cwd, 'nested-widget', 'index.html'), PAGE(`${'<div>'.repeat(50_000)}deep${'</div>'.repeat(50_000)}`));
  await symlink(join(cwd, 'nested-widget'), join(cwd, 'linked-widget'));
});

const PAGE = (body: string) => `<!doctype html><html><head><title>w</title></head><body>${body}</body></html>`;

const sign = (...more: string[]) => [
  'sign',
  '--key',
  'alice/private-key.jwk.json',
  '--agent-url',
  'https://agents.example/a/alice',
  '--method',
  'GET',
  '--url',
  'https://platform.example/',
  ...more,
];

describe('hostile input on the command line', () => {
  it.each([
    ['a case nested 100,000 arrays deep', ['verify', 'deep.json'], 'nest deeper than 256 levels'],
    ['a device that never ends', ['verify', '/dev/zero'], 'is larger than 64 MiB'],
    ['a header value outside printable ASCII', sign('--header', 'X-A: ☃'), '--header X-A: a covered field value must be printable ASCII'],
    ['a header value with a line break', sign('--header', 'X-A: a\r\nX-B: b'), '--header X-A: a covered field value must be printable ASCII'],
    ['a nonce outside printable ASCII', sign('--nonce', '☃'), '--nonce must be printable ASCII'],
    ['a nonce longer than 5.2 allows', sign('--nonce', 'n'.repeat(257)), '--nonce is 257 characters'],
    ['an authority with a space', ['serve', '--authority', 'a b'], '--authority must be a host'],
    ['a keys directory that is a file', ['serve', '--keys-dir', 'a-file'], 'is a file, not a folder'],
    ['a keys directory holding an RSA key as its Ed25519 key', ['serve', '--keys-dir', 'rsa-keys'], "does not hold the agent's keys"],
    ['a fixture port past 65535', ['run', '--base-url', 'http://127.0.0.1:9', '--fixture-port', '99999'], '--fixture-port must be a port number'],
    ['a timeout of 0', ['run', '--timeout', '0'], '--timeout must be at least 1 millisecond'],
    [
      'an empty client address header',
      ['run', '--base-url', 'http://127.0.0.1:9', '--client-address-header', ''],
      '--client-address-header must be a header name',
    ],
    ['reports into a file', ['run', '--only', 'key-directory.entries', '--out', 'a-file'], 'it is a file, not a folder'],
    ['reports into a folder under a file', ['run', '--only', 'key-directory.entries', '--out', 'a-file/reports'], '--out '],
    // Node's own recursive mkdir spins for ever here: mkdir under /proc answers ENOENT though /proc exists.
    [
      'reports where no folder can be made',
      ['run', '--only', 'key-directory.entries', '--out', '/proc/nope/deeper'],
      '--out /proc/nope/deeper: the reports cannot be written there',
    ],
    [
      'keys where no folder can be made',
      ['keygen', '--agent-url', 'https://agents.example/a/bob', '--out', '/proc/nope'],
      'cannot write to --out "/proc/nope"',
    ],
    ['an agent client without its agent', ['run', '--agent-client', 'id:secret'], '--agent-client goes with --agent-url'],
    ['a second instance without the first', ['run', '--also-base-url', 'http://127.0.0.1:9'], '--also-base-url goes with --base-url'],
    ['a second instance that is no URL', ['run', '--base-url', 'http://127.0.0.1:9', '--also-base-url', 'b'], '--also-base-url must be an http or https URL'],
    ['a widget folder holding a 2 GB file', ['check-widget', 'huge-widget'], '"huge-widget/disk.img" takes the widget past 64 MiB'],
  ])('%s: exit 2, naming it', async (_what, argv, message) => {
    const run = await runCli(argv, { cwd });
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stderr).not.toContain('harness error');
    expect(run.code).toBe(2);
  });
});

describe('widgets that are large or deep, not hostile', () => {
  it.each([
    ['an index.html of 50,000 nested <div>', 'nested-widget'],
    ['a widget folder named through a symbolic link', 'linked-widget'],
  ])('%s is checked like any other', async (_what, folder) => {
    const run = await runCli(['check-widget', folder], { cwd });
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stderr).not.toContain('harness error');
    expect(run.stderr).not.toContain('neither a folder nor a file');
    expect([0, 1]).toContain(run.code);
  });
});

describe('a fixture port another process holds', () => {
  const servers: Server[] = [];
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  afterAll(() => {
    for (const s of servers) s.close();
  });

  it('is exit 2 naming --fixture-port, not a harness error', async () => {
    const target = await listen(createServer((_req, res) => res.end('ok')));
    const held = await listen(createServer());
    const run = await runCli(['run', '--base-url', `http://127.0.0.1:${target}`, '--fixture-port', String(held), '--only', 'key-directory.entries'], { cwd });
    expect(run.stderr).toContain(`--fixture-port ${held}: the port is in use`);
    expect(run.stderr).not.toContain('harness error');
    expect(run.code).toBe(2);
  });
});
