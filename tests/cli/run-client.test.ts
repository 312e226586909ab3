import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

describe('run --client-command: options', () => {
  it.each([
    [['--allow-insecure-fixtures'], '--allow-insecure-fixtures goes with --client-command'],
    [['--client-command', '  '], '--client-command needs a command line'],
    [['--client-command', 'true', '--base-url', 'http://127.0.0.1:1'], '--base-url checks a server; client mode (--client-command) checks a client'],
    [['--client-command', 'true', '--self-test'], '--self-test checks a server'],
    [['--client-self-test', '--client-command', 'true'], '--client-self-test runs the reference client itself'],
    [
      ['--client-command', 'true', '--only', 'pack-crad'],
      'pack-crad is neither a client case, a client check id nor a client requirement id (did you mean pack-card?)',
    ],
  ])('%j exits 2: %s', async (argv, message) => {
    const out = await tempDir();
    const { code, stderr } = await runCli(['run', ...argv, '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('a client that sends nothing leaves every check not run: exit 2 with the reason, and a report of kind client', async () => {
    const out = await tempDir();
    const { code, stdout, stderr } = await runCli(['run', '--client-command', 'exit 0', '--only', 'signed-get', '--out', out]);
    expect(code).toBe(2);
    expect(stdout).toContain('case signed-get: 0 request(s), the client exited with code 0');
    expect(stderr).toMatch(
      /none of the 32 selected client checks could run; first reason: no request the client sent in the 1 case\(s\) that judge it reached it/,
    );
    const [runDir] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runDir!, 'report.json'), 'utf8')) as { target: { kind: string; clientCommand: string }; rerun: string[] };
    expect(report.target).toMatchObject({ kind: 'client', clientCommand: 'exit 0' });
    expect(report.rerun).toEqual(['--client-command', "'exit 0'"]);
  });

  it('judges an unsigned client as a process: the signed rule fails, and an expected-failures entry can list it', async () => {
    const out = await tempDir();
    // A client that sends the case's request with no signature at all (node's fetch, no SDK).
    const command = `"${process.execPath}" -e 'fetch(process.env.APC_REQUEST_URL).then((r) => r.text())'`;
    const failing = await runCli(['run', '--client-command', command, '--only', 'signed-get', '--out', out]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^ {2}FAIL MUST CLIENT-SIGNER-SIGNED: /m);
    expect(failing.stdout).toContain('request 1 (GET /api/client-probe) carries no Signature-Agent, Signature-Input and Signature');
    const listed = join(out, 'expected.yaml');
    writeFileSync(listed, 'expected_failures:\n  - id: client.signer-signed\n    reason: "this client signs nothing yet"\n');
    const expected = await runCli(['run', '--client-command', command, '--only', 'signed-get', '--out', out, '--expected-failures', listed]);
    expect(expected.stdout).toMatch(/^NOT CONFORMANT, AS EXPECTED \(\d+ of \d+ checked/m);
    expect(expected.code).toBe(0);
  });

  it('--client-self-test runs the reference client and its faults in process: exit 0, the self-test in the report', async () => {
    const out = await tempDir();
    const { code, stdout } = await runCli(['run', '--client-self-test', '--only', 'CLIENT-SIGNER-NONCE-UNIQUE', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^CONFORMANT \(1 of 1 checked\)\n {2}1 passed/m);
    expect(stdout).toMatch(/SELF-TEST PASSED: mutation score 100\.0% \(1 of 1 mutants caught/);
  }, 30_000);
});
