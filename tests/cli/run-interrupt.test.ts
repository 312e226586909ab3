import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { validateReport } from '../../src/harness/report-schema.js';
import type { RunReport } from '../../src/harness/results.js';
import { PROJECT_ROOT } from '../paths.js';

describe('an interrupted run', () => {
  test('SIGINT stops the run, which exits 3 and leaves a valid report marked incomplete', async () => {
    const held: ServerResponse[] = [];
    let firstHeld!: () => void;
    const holding = new Promise<void>((resolve) => (firstHeld = resolve));
    // Answers the reachability probe, then holds every request open: a deployment that hangs.
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/') return void res.end('ok');
      held.push(res);
      firstHeld();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const out = mkdtempSync(join(tmpdir(), 'apc-interrupt-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'run', '--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--client-address-header', 'x-forwarded-for', '--out', out], { cwd: PROJECT_ROOT });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await holding;
      child.kill('SIGINT');
      for (const res of held) res.destroy();
      expect(await exited).toBe(3);
    } finally {
      child.kill('SIGKILL');
      server.closeAllConnections();
      server.close();
    }
    const [runDir] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runDir!, 'report.json'), 'utf8')) as RunReport;
    expect(report.complete).toBe(false);
    expect(report.harnessErrors[0]).toContain('the run was interrupted (SIGINT)');
    expect(validateReport(report)).toEqual({ valid: true, errors: [] });
    expect(stderr).toContain('interrupted');
  }, 60_000);
});
