import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { replayPurchaseCase, type PresentEvent, type PurchaseVectors, type EventResult } from '../../src/scenarios/purchases/index.js';
import { PROJECT_ROOT } from '../paths.js';

const vectors = JSON.parse(readFileSync(`${PROJECT_ROOT}vectors/purchases.json`, 'utf8')) as PurchaseVectors;
const cases = vectors.testGroups.flatMap((g) => g.cases);

/** A presentation's answer as the file states it and as the machine gives it, with its concurrent presentations. */
function agreePresent(label: string, event: PresentEvent, result: EventResult): void {
  expect(result.type, label).toBe('present');
  if (result.type !== 'present') return;
  expect(result.expect, label).toEqual(event.expect);
  if (event.paymentAuthorization?.built !== undefined)
    expect(result.credential, `${label}: the built credential is the literal one`).toBe(event.paymentAuthorization.value);
  const nested = event.whileServing ?? [];
  expect(result.whileServing, label).toHaveLength(nested.length);
  for (const [n, inner] of nested.entries()) agreePresent(`${label} whileServing ${n}`, inner, result.whileServing[n]!);
}

describe('the purchase machine gives every answer of vectors/purchases.json', () => {
  test.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const results = await replayPurchaseCase(c, { credentials: 'literal' });
    expect(results).toHaveLength(c.events.length);
    c.events.forEach((event, index) => {
      const label = `${c.id} event ${index} (${event.type})`;
      const result = results[index]!;
      if (event.type === 'present') agreePresent(label, event, result);
      else if (event.type === 'report-settled') expect(result, label).toEqual({ type: 'report-settled', expect: event.expect });
      else expect(result.type, label).toBe('other');
    });
  });
});
