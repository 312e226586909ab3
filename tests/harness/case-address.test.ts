import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { ADDRESS_STATES } from '../../src/contract/test-control.js';
import { caseAddress, LiveTarget } from '../../src/harness/targets/live.js';

/** 198.18.0.0/15, the benchmarking range (RFC 2544), where every address a live run sends in a header lies. */
function inBenchmarkingRange(address: string): boolean {
  const [a, b, c, d] = address.split('.').map(Number);
  return a === 198 && (b === 18 || b === 19) && [c, d].every((n) => Number.isInteger(n) && n! >= 0 && n! <= 255);
}

describe('the client address a live run sends for a case (--client-address-header)', () => {
  test('is the same for every request of one case in one run', () => {
    expect(caseAddress('run-a', 'signed.throttle-thirty-failures')).toBe(caseAddress('run-a', 'signed.throttle-thirty-failures'));
  });

  test('differs between two runs, so a retry within 60 s does not count the first run’s failures', () => {
    const runs = Array.from({ length: 50 }, (_, i) => caseAddress(`run-${i}`, 'signed.throttle-thirty-failures'));
    expect(new Set(runs).size).toBeGreaterThanOrEqual(49);
  });

  test('differs between cases of one run, and between the addresses one case names', () => {
    expect(caseAddress('run-a', 'case-1')).not.toBe(caseAddress('run-a', 'case-2'));
    expect(caseAddress('run-a', 'case-1', '203.0.113.7')).not.toBe(caseAddress('run-a', 'case-1', '203.0.113.8'));
    expect(caseAddress('run-a', 'case-1', '203.0.113.7')).not.toBe(caseAddress('run-b', 'case-1', '203.0.113.7'));
  });

  test('lies in the benchmarking range, never a last octet of 0', () => {
    for (let i = 0; i < 500; i++) {
      const address = caseAddress(`run-${i}`, `case-${i % 7}`, i % 2 ? '192.0.2.1' : '');
      expect(inBenchmarkingRange(address), address).toBe(true);
      expect(address.endsWith('.0'), address).toBe(false);
    }
  });
});

describe('a state of a client address, put through the test control of a live run', () => {
  test('names the address the deployment sees for requests that name it, as the case sends them', async () => {
    const seen: { path: string; forwarded?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ path: req.url ?? '', forwarded: req.headers['x-forwarded-for'] as string | undefined, body });
        res.statusCode = req.url === '/control' ? 204 : 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const target = new LiveTarget({
      baseUrl: base,
      controlUrl: `${base}/control`,
      runId: 'run-a',
      clientAddressHeader: 'x-forwarded-for',
      fixture: { url: `${base}/fixtures`, adminUrl: `${base}/admin`, token: 'unused' },
    });
    try {
      expect(await target.control({ state: ADDRESS_STATES.addressCapOne, address: '2001:db8::7' })).toEqual({ ok: true });
      await target.send({ method: 'POST', url: `${base}/api/priced/echo`, headers: [], body: null, clientAddress: '2001:db8::7' });
      const [control, call] = seen;
      expect(JSON.parse(control!.body)).toEqual({ state: 'address-cap-one', address: call!.forwarded });
      expect(call!.forwarded).toBe(caseAddress('run-a', '', '2001:db8::7'));
    } finally {
      await target.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
