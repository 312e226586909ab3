import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/errors.js';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { createServeCommand } from '../../src/cli/serve.js';
import { generateEd25519Jwk } from '../../src/httpsig/index.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { HEADERS } from '../../src/spec/headers.js';
import { post, SigningAgent } from './serve-process.js';
import { startRedis, type TestServer, whyNoRedis } from './servers.js';

/**
 * The platform-token signing key of a deployment of several instances (issue 27): configured (--platform-token-key) or
 * kept on the shared store, never a key of one process, so a token one instance minted is a credential at every other.
 */
const PUBLIC = 'http://platform.test';
const TOKEN_URL = `${PUBLIC}${PLATFORM_ROUTES.cliToken}`;
const dir = mkdtempSync(join(tmpdir(), 'apc-token-key-'));
const keyFile = join(dir, 'platform-token.jwk.json');
const redisMissing = whyNoRedis();
let redis: TestServer | undefined;
let agent: SigningAgent | undefined;

beforeAll(async () => {
  writeFileSync(keyFile, JSON.stringify(generateEd25519Jwk().privateJwk));
  agent = await SigningAgent.start('token-key');
  if (!redisMissing) redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await agent?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `serve` in-process until stopped: its URL once listening, or what it threw. */
async function serve(argv: readonly string[]) {
  let out = '';
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const command = createServeCommand(() => stopped);
  const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, cwd: dir };
  const ran = command.run(parseCommandArgs(command, ['--port', '0', '--allow-insecure-fixtures', '--public-url', PUBLIC, ...argv]), io).then(
    (code) => ({ code }),
    (error: unknown) => ({ error }),
  );
  for (let i = 0; i < 1000 && !/^listening on \S+\n/.test(out); i++) {
    const early = await Promise.race([ran, new Promise((r) => setTimeout(r, 10, undefined))]);
    if (early !== undefined) return { url: undefined, ran, stop, out: () => out };
  }
  return { url: /^listening on (\S+)$/m.exec(out)?.[1], ran, stop, out: () => out };
}

/** A token minted at the first instance, then used as a bearer at each: the answers' statuses. */
async function tokenAcrossInstances(argv: readonly string[]): Promise<number[]> {
  const instances = [await serve(argv), await serve(argv)];
  try {
    const [a, b] = instances.map((i) => i.url!) as [string, string];
    const minted = await post(a, TOKEN_URL, agent!.sign(TOKEN_URL));
    expect(minted.status, minted.body).toBe(200);
    const bearer = { [HEADERS.authorization]: `${AUTH_SCHEMES.bearer} ${(JSON.parse(minted.body) as { access_token: string }).access_token}` };
    return [(await post(a, TOKEN_URL, bearer)).status, (await post(b, TOKEN_URL, bearer)).status];
  } finally {
    for (const i of instances) i.stop();
    for (const i of instances) expect(await i.ran).toEqual({ code: 0 });
  }
}

describe('serve: the platform-token key shared by the instances of one deployment', () => {
  it('with the same --platform-token-key, each instance accepts the tokens the other minted', async () => {
    expect(await tokenAcrossInstances(['--platform-token-key', keyFile])).toEqual([200, 200]);
  });

  it("without it, instances keeping nothing in common refuse each other's tokens (the fault the option fixes)", async () => {
    expect(await tokenAcrossInstances([])).toEqual([200, 401]);
  });

  it('with only --store, the key kept on Redis is the same at every instance', async (ctx) => {
    if (redisMissing) ctx.skip(redisMissing);
    expect(await tokenAcrossInstances(['--store', redis!.url])).toEqual([200, 200]);
  });

  it.each([
    ['a missing file', 'absent.json', /^cannot read --platform-token-key file "absent\.json": no such file/],
    ['a public key', 'public.json', /^--platform-token-key file "public\.json" holds a public key; serve needs the private key/],
  ])('exits 2 naming the problem for %s', async (_name, file, message) => {
    const { d: _d, ...publicJwk } = generateEd25519Jwk().privateJwk;
    writeFileSync(join(dir, 'public.json'), JSON.stringify(publicJwk));
    const run = await serve(['--platform-token-key', file]);
    const result = await run.ran;
    expect('error' in result && exitCodeOf(result.error)).toBe(2);
    expect((result as { error: Error }).error.message).toMatch(message);
  });
});
