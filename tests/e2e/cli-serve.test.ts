import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../src/cli/commands.js';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { createServeCommand, INSECURE_FIXTURES_WARNING } from '../../src/cli/serve.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { ED25519_JWK, WELL_KNOWN } from '../../src/spec/wire.js';
import { PROJECT_ROOT } from '../paths.js';

const LISTENING = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/;

/** Runs `serve` in-process until `stop` resolves; returns its output and exit code. */
function runServe(argv: string[]) {
  let stdout = '';
  let stderr = '';
  let stop!: () => void;
  let cancelled: AbortSignal | undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const command = createServeCommand((signal) => {
    cancelled = signal;
    return stopped;
  });
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd: PROJECT_ROOT };
  const code = command.run(parseCommandArgs(command, argv), io);
  return { code, stop, out: () => stdout, err: () => stderr, cancelled: () => cancelled };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('serve command', () => {
  it('is listed as available with its options', () => {
    const command = findCommand('serve')!;
    expect(command.available).toBe(true);
    expect(Object.keys(command.options).sort()).toEqual([
      'agent-client',
      'agent-name',
      'allow-insecure-fixtures',
      'authority',
      'client-address-header',
      'db',
      'host',
      'keys-dir',
      'owner-key',
      'platform-token-key',
      'port',
      'public-url',
      'service-name',
      'store',
      'test-control',
    ]);
  });

  it('prints `listening on http://127.0.0.1:PORT` first, then the insecure-fixtures warning, and exits 0 when stopped', async () => {
    const run = runServe(['--port', '0', '--allow-insecure-fixtures']);
    await until(() => run.out().includes('\n'));
    const [first, second] = run.out().split('\n');
    const port = LISTENING.exec(first!)?.[1];
    expect(port).toBeDefined();
    expect(second).toBe(INSECURE_FIXTURES_WARNING);
    expect(run.err()).toBe('');
    const response = await fetch(`http://127.0.0.1:${port}${WELL_KNOWN.keyDirectory}`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    run.stop();
    expect(await run.code).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}${WELL_KNOWN.keyDirectory}`)).rejects.toThrow();
  });

  it('names the signatures it accepts after --authority', async () => {
    const run = runServe(['--authority', 'platform.example']);
    await until(() => run.out().split('\n').length > 2);
    expect(run.out()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\nagent reference at http:\/\/platform\.example\/agents\/reference\n$/);
    run.stop();
    expect(await run.code).toBe(0);
  });

  it('refuses a bad --port and a port in use with exit-2 errors, and stops waiting for a signal', async () => {
    await expect(runServe(['--port', '70000']).code).rejects.toThrow(/--port must be a port number/);
    const busy = http.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = busy.address() as AddressInfo;
      const run = runServe(['--port', String(port)]);
      await expect(run.code).rejects.toThrow(/already in use/);
      expect(run.cancelled()?.aborted).toBe(true);
      expect(run.out()).toBe('');
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  it('runs as a process: first line, key directory, SIGTERM, exit 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'serve', '--port', '0'], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', () => reject(new Error(`serve exited before printing: ${stderr}`)));
      });
      lines.close();
      const port = LISTENING.exec(first)?.[1];
      expect(port, first).toBeDefined();
      const response = await fetch(`http://127.0.0.1:${port}${WELL_KNOWN.keyDirectory}`);
      expect(response.status).toBe(200);
      expect(response.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
      // The one agent it hosts, the reference agent, is listed by its thumbprint.
      const directory = (await response.json()) as { keys: Array<Record<string, unknown>> };
      expect(directory.keys).toHaveLength(1);
      expect(directory.keys[0]).toMatchObject({ kty: ED25519_JWK.kty, crv: ED25519_JWK.crv });
      expect(directory.keys[0]!.d).toBeUndefined();
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
