import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { VERIFIER_MUTANTS } from '../../src/mutants/verifier.js';
import { Kit, VECTOR_ENV } from '../../src/scenarios/kit.js';
import { VERIFIER_VARIANTS } from '../../src/variants/verifier.js';
import { createMemoryPorts } from '../../src/verifier/memory-ports.js';
import { orderProblem, SIGNED_REQUEST_CHECKS, type Check } from '../../src/verifier/order.js';
import type { VerifierConfig, VerifierRequest } from '../../src/verifier/types.js';
import { verifyRequest } from '../../src/verifier/verify-request.js';

/**
 * The order of checks as a value (order.ts): the reference's table is proven by the compiler; an order the
 * configuration brings is checked by verifyRequest, which will not run a check before the facts it needs.
 */
const kit = new Kit(VECTOR_ENV, 'order');
const BASE: VerifierConfig = { authority: kit.env.authority };
const caseRequest = kit.request({ bodyText: '{"a":1}' });
const request: VerifierRequest = {
  method: caseRequest.method,
  url: caseRequest.url,
  headers: caseRequest.headers,
  body: new Uint8Array(Buffer.from(caseRequest.body_base64 ?? '', 'base64')),
  clientAddress: '192.0.2.9',
};
const verify = (checks: readonly Check[]) =>
  verifyRequest(request, createMemoryPorts({ now: () => kit.now }, createMemoryFetcher({ ...kit.docs() })), { ...BASE, checks });
const named = (name: string) => SIGNED_REQUEST_CHECKS.find((c) => c.name === name) as Check;
const without = (name: string) => SIGNED_REQUEST_CHECKS.filter((c) => c.name !== name);

describe('the order of checks', () => {
  it("the reference's order can run, and accepts a good request", async () => {
    expect(orderProblem(SIGNED_REQUEST_CHECKS)).toBeNull();
    expect(await verify(SIGNED_REQUEST_CHECKS)).toMatchObject({ ok: true, kind: 'signature', registered: true });
  });

  it("every variant's order can run", () => {
    const orders = VERIFIER_VARIANTS.flatMap((v) => v.platform?.config?.(BASE).checks ?? []);
    expect(orders.length).toBeGreaterThan(0);
    for (const v of VERIFIER_VARIANTS) {
      const checks = v.platform?.config?.(BASE).checks;
      if (checks) expect([v.id, orderProblem(checks)]).toEqual([v.id, null]);
    }
  });

  it('a mutant that drops a check giving facts leaves an order that cannot run; one dropping a judgement can', () => {
    for (const m of VERIFIER_MUTANTS.filter((m) => m.id.startsWith('verifier-skips-'))) {
      const name = m.id.slice('verifier-skips-'.length);
      const checks = m.platform?.config?.(BASE).checks ?? [];
      expect([name, orderProblem(checks) === null]).toEqual([name, named(name).gives.length === 0]);
    }
  });

  it('a judgement dropped still accepts a good request', async () => {
    expect(await verify(without('policy'))).toMatchObject({ ok: true });
  });

  it('a check moved above what it needs is named, and verifyRequest will not run the order', async () => {
    const moved = [named('policy'), ...without('policy')];
    expect(orderProblem(moved)).toBe('the check policy needs identity, which no check before it gives');
    await expect(verify(moved)).rejects.toThrow('verifier configuration: the check policy needs identity, which no check before it gives');
  });

  it('a fact given twice, or one the acceptance reports given by none, is named', () => {
    expect(orderProblem([...SIGNED_REQUEST_CHECKS, named('signature-base')])).toBe('the checks signature-base and signature-base both give bases');
    expect(orderProblem(without('card-and-registration'))).toBe('no check gives registered, which the acceptance reports');
  });
});
