import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { serializeVectors } from '../../src/scenarios/signed-request-vectors.js';
import { widgetVectors } from '../../src/scenarios/widgets/vectors.js';
import { checkDispatch } from '../../src/widgets/bridge/operations.js';
import { nextStep } from '../../src/widgets/bridge/retry-policy.js';
import { checkBundle } from '../../src/widgets/bundle/check.js';
import { checkBareDomain } from '../../src/widgets/csp/bare-domain.js';
import { buildCspPolicy } from '../../src/widgets/csp/policy.js';
import { parseManifest } from '../../src/widgets/manifest/parse.js';
import { PROJECT_ROOT } from '../paths.js';

type Case = Record<string, unknown> & { id: string };
interface Group {
  type: string;
  policy?: { backoffBaseMs: number; backoffMaxMs: number; maxAttempts: number };
  cases: Case[];
}

const FILE = `${PROJECT_ROOT}vectors/widgets.json`;
const text = readFileSync(FILE, 'utf8');
const vectors = JSON.parse(text) as { numberOfTests: number; notes: Record<string, string>; testGroups: Group[] };
const group = (type: string): Group => vectors.testGroups.find((g) => g.type === type)!;
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('vectors/widgets.json', () => {
  test('validates against vectors/schema/widgets.schema.json', () => {
    const schema = JSON.parse(readFileSync(`${PROJECT_ROOT}vectors/schema/widgets.schema.json`, 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    expect(validate(vectors), JSON.stringify(validate.errors)).toBe(true);
  });

  test('is exactly what its generator writes (regenerate after changing a scenario)', async () => {
    expect(text === serializeVectors(await widgetVectors()), 'vectors/widgets.json differs from src/scenarios/widgets/vectors.ts').toBe(true);
  });

  test('the generator is deterministic', async () => {
    expect(serializeVectors(await widgetVectors())).toBe(serializeVectors(await widgetVectors()));
  });

  test('numberOfTests counts the cases, ids are unique per group and every flag is described', () => {
    expect(vectors.numberOfTests).toBe(vectors.testGroups.reduce((n, g) => n + g.cases.length, 0));
    for (const g of vectors.testGroups) {
      expect(new Set(g.cases.map((c) => c.id)).size, g.type).toBe(g.cases.length);
      for (const c of g.cases) for (const f of c.flags as string[]) expect(vectors.notes[f], `${g.type}/${c.id} flag ${f}`).toBeTypeOf('string');
    }
    expect(vectors.testGroups.map((g) => g.type)).toEqual(['bare-domain', 'csp-policy', 'manifest', 'bundle', 'bridge-retry', 'bridge-dispatch']);
  });
});

describe('the widget cores give every verdict of vectors/widgets.json', () => {
  test.each(group('bare-domain').cases)('bare-domain $id', (c) => {
    const verdict = checkBareDomain(c.domain);
    expect(verdict.ok ? 'valid' : 'invalid').toBe(c.result);
    if (!verdict.ok) expect(verdict.reason).toBe(c.reason);
  });

  test.each(group('csp-policy').cases)('csp-policy $id', (c) => {
    const p = buildCspPolicy(c.csp as Record<string, unknown[]>);
    expect(p.policy).toBe(c.policy);
    expect(p.fallback).toBe(c.fallback);
    expect(p.openLinkAllowlist).toEqual(c.openLinkAllowlist);
    expect(p.rejected.map((r) => r.path)).toEqual(c.rejected);
  });

  test.each(group('manifest').cases)('manifest $id', (c) => {
    const r = parseManifest(c.manifest as string);
    expect(r.ok ? 'valid' : 'invalid').toBe(c.result);
    if (r.ok) expect(plain(r.manifest)).toEqual(c.normalized);
    else expect(r.errors.map(({ code, path }) => ({ code, path }))).toEqual(c.errors);
  });

  test.each(group('bundle').cases)('bundle $id', (c) => {
    const files = new Map(
      Object.entries(c.files as Record<string, { text?: string; fill?: string; size?: number }>).map(([path, f]) => [
        path,
        f.text !== undefined ? new TextEncoder().encode(f.text) : new Uint8Array(f.size!).fill(f.fill!.charCodeAt(0)),
      ]),
    );
    const r = checkBundle(files);
    expect(r.valid ? 'valid' : 'invalid').toBe(c.result);
    expect(r.errors.map(({ code, path }) => ({ code, path }))).toEqual(c.errors);
    expect(r.csp).toEqual(c.csp);
    expect(r.entry ?? null).toBe(c.entry);
  });

  const retry = group('bridge-retry');
  test.each(retry.cases)('bridge-retry $id', (c) => {
    expect(nextStep(c.code as string, c.attempt as number, c.retryAfterSeconds as number | undefined, retry.policy)).toEqual(c.step);
  });

  test.each(group('bridge-dispatch').cases)('bridge-dispatch $id', (c) => {
    const v = checkDispatch(c.operation as string, c.host as Parameters<typeof checkDispatch>[1]);
    expect(v.ok ? null : v.code).toBe(c.error);
    expect(v.ok ? 'valid' : 'invalid').toBe(c.result);
  });
});
