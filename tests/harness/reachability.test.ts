import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachable } from '../../src/harness/reachability.js';
import { startServer, type LocalServer } from '../fetch/local-server.js';

/** A live target whose certificate the run cannot trust: exit 3, saying it was TLS and how to trust a private CA. */
let site: LocalServer;
beforeAll(async () => {
  site = await startServer((_request, response) => response.writeHead(200).end('{}'));
});
afterAll(async () => {
  await site?.close();
});

describe('reachable over TLS', () => {
  it('names a failed TLS handshake and NODE_EXTRA_CA_CERTS, not "did not answer"', async () => {
    const outcome = await reachable(site.origin, 2000);
    expect(outcome.ok).toBe(false);
    const why = outcome.ok ? '' : outcome.why;
    expect(why).toMatch(/^https:\/\/127\.0\.0\.1:\d+: the TLS handshake failed \(/);
    expect(why).toContain('NODE_EXTRA_CA_CERTS=FILE');
    expect(why).not.toContain('did not answer');
  });
});
