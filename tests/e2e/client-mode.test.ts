import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { clientDocuments, clientIdentity } from '../../src/reference/client/client.js';
import { PROJECT_ROOT } from '../paths.js';

const exec = promisify(execFile);
const TSX = `${process.execPath} --import tsx`;
const REFERENCE = `${TSX} tests/client/wrappers/reference.ts`;

let host: FixtureHost;
let env: Record<string, string>;
let out: string;

/** `run --client-command CMD ARGS` as users run it, in its own process, with the wrapper's variables. */
async function clientRun(command: string, args: readonly string[], extra: Record<string, string> = {}, timeoutMs = 110_000) {
  const argv = ['--import', 'tsx', 'src/cli/entry.ts', 'run', '--client-command', command, '--allow-insecure-fixtures', '--out', out, ...args];
  try {
    const { stdout, stderr } = await exec(process.execPath, argv, { cwd: PROJECT_ROOT, env: { ...process.env, ...env, ...extra }, timeout: timeoutMs });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  // The agent's documents on a loopback fixture host (the double reads them under --allow-insecure-fixtures), its key in a file.
  host = await startFixtureHost({ port: 0 });
  const identity = clientIdentity(`${host.url}/agents/e2e-client`, 1, 'e2e-client');
  host.publish(clientDocuments(identity));
  const folder = mkdtempSync(join(tmpdir(), 'apc-client-e2e-'));
  writeFileSync(join(folder, 'key.json'), JSON.stringify(identity.keys[0]));
  out = join(folder, 'reports');
  env = { CLIENT_KEY_FILE: join(folder, 'key.json'), CLIENT_AGENT_URL: identity.agentUrl, CONFORMANCE_CLI: `${TSX} ${join(PROJECT_ROOT, 'src/cli/entry.ts')}` };
});

afterAll(async () => {
  await host?.close();
});

describe('run --client-command: the reference client as a process', () => {
  it('judges the conformant reference client conformant over every case: exit 0', async () => {
    // Every case starts the wrapper under tsx: seconds each on a busy machine.
    const { code, stdout } = await clientRun(REFERENCE, [], {}, 280_000);
    expect(stdout).toMatch(/^CONFORMANT \(32 of 32 checked\)\n {2}32 passed, 0 failed, 0 warnings, 0 not run/m);
    expect(code).toBe(0);
  }, 300_000);

  // Each realistic fault of "Done when" (issue 25): exit 1, naming the rule it breaks.
  it.each([
    ['client-nonce-reused', ['signed-get', 'signed-post'], 'CLIENT-SIGNER-NONCE-UNIQUE'],
    ['client-window-3601', ['signed-get'], 'CLIENT-SIGNER-WINDOW'],
    ['client-content-digest-dropped', ['signed-post'], 'CLIENT-SIGNER-CONTENT-DIGEST'],
    ['client-fresh-credential', ['pack-charge-processing'], 'CLIENT-BUYER-SAME-CREDENTIAL'],
    ['client-retry-too-soon', ['pack-charge-processing'], 'CLIENT-BUYER-RETRY-AFTER'],
    ['client-pays-after-upstream-502', ['upstream-not-relayed'], 'CLIENT-BUYER-UPSTREAM'],
    ['client-submits-before-paying', ['signed-upgrade'], 'PURCHASE-INBAND-PAYMENT-SUBMIT'],
  ])(
    'fails a client with %s (cases %j): exit 1 naming %s',
    async (fault, cases, requirement) => {
      const { code, stdout } = await clientRun(
        REFERENCE,
        cases.flatMap((c) => ['--only', c]),
        { CLIENT_FAULT: fault },
      );
      expect(stdout).toMatch(/^NOT CONFORMANT \(/m);
      expect(stdout).toMatch(new RegExp(`^  FAIL MUST ${requirement}: `, 'm'));
      expect(code).toBe(1);
    },
    120_000,
  );
});

describe('run --client-command: other clients as processes', () => {
  it('says in the verdict line what would judge the rules a client left unjudged', async () => {
    // A client that sends nothing: its case's rules are not reached, the other cases' rules were not selected.
    const { stdout } = await clientRun('true', ['--only', 'signed-get']);
    expect(stdout).toMatch(
      /^INCOMPLETE \(0 of 32 checked; 32 not run: (\d+) were not reached by the client's requests, (\d+) need a client case the selection left out\)$/m,
    );
    expect(stdout).not.toContain('for other reasons');
  }, 120_000);

  it('our sign command and curl (docs/client-mode.md) pass the signer cases', async () => {
    const { code, stdout } = await clientRun('tests/client/wrappers/sign.sh', ['--only', 'signed-get', '--only', 'signed-post']);
    expect(stdout).toMatch(/^CONFORMANT \(20 of 32 checked; 12 not run: [^)]*\)\n {2}20 passed, 0 failed/m);
    expect(code).toBe(0);
  }, 120_000);

  it("Cloudflare's web-bot-auth as its README shows fails the coverage rule", async () => {
    const { code, stdout } = await clientRun(`${TSX} tests/client/wrappers/web-bot-auth.ts`, ['--only', 'signed-get']);
    expect(stdout).toMatch(/^ {2}FAIL MUST CLIENT-SIGNER-COVERAGE: /m);
    expect(code).toBe(1);
  }, 120_000);

  it('the mppx client buys a pack: exit 0', async () => {
    const { code, stdout } = await clientRun(`${TSX} tests/client/wrappers/mppx.ts`, ['--only', 'pack-card']);
    expect(stdout).toMatch(/case pack-card: 2 request\(s\), the client exited with code 0/);
    expect(code).toBe(0);
  }, 120_000);

  it('stops a client that does not exit within its time, and judges what it sent: nothing, exit 2', async () => {
    const { code, stdout, stderr } = await clientRun('sleep 60', ['--only', 'signed-get', '--timeout', '1000']);
    expect(stdout).toContain('case signed-get: 0 request(s), the client stopped after its time limit of 1 s');
    expect(stderr).toMatch(/none of the 32 selected client checks could run/);
    expect(code).toBe(2);
  }, 60_000);
});
