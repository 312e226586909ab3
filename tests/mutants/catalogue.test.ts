import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { CATALOGUE } from '../../src/harness/coverage.js';
import { MUTANTS, UNTESTABLE, mutantCatalogueProblems, type Mutant } from '../../src/mutants/index.js';
import { createReferencePlatform } from '../../src/reference/platform.js';
import { AUTH_ERRORS, AUTH_ERROR_LIST } from '../../src/spec/auth-errors.js';
import { ENDPOINT_ERROR_LIST } from '../../src/spec/endpoint-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PURCHASE_ERROR_LIST } from '../../src/spec/purchase-errors.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

const ids = new Set(CATALOGUE.map((r) => r.id));
const named = new Set(MUTANTS.flatMap((m) => m.requirements));
const mutant = (id: string): Mutant => MUTANTS.find((m) => m.id === id) ?? expect.fail(`no mutant ${id}`);

describe('the mutant catalogue', () => {
  it('has unique ids, and every mutant names catalogue requirements and switches something on', () => {
    expect(mutantCatalogueProblems(MUTANTS, ids)).toEqual([]);
  });

  it('reports what is wrong with a bad list', () => {
    const bad: Mutant[] = [
      { id: 'x', description: 'x', requirements: ['NO-SUCH-ID'], platform: {} },
      { id: 'x', description: 'x', requirements: [] },
    ];
    expect(mutantCatalogueProblems(bad, ids)).toEqual([
      'mutant x names NO-SUCH-ID, which the catalogue does not hold',
      'mutant x is listed twice',
      'mutant x names no requirement',
      'mutant x switches nothing on',
    ]);
  });

  it('breaks every error_code of 7.3 and 7.4 and every status of 7.2, except what the catalogue marks untestable', () => {
    const untestable = new Set(UNTESTABLE.map((u) => u.id));
    const rows = [...AUTH_ERROR_LIST, ...PURCHASE_ERROR_LIST, ...ENDPOINT_ERROR_LIST].map((r) => r.id).filter((id) => !untestable.has(id));
    expect(rows.filter((id) => !named.has(id))).toEqual([]);
  });

  it('marks requirements untestable once each, with a reason, and only catalogue ids', () => {
    expect(UNTESTABLE.filter((u) => !ids.has(u.id)).map((u) => u.id)).toEqual([]);
    expect(new Set(UNTESTABLE.map((u) => u.id)).size).toBe(UNTESTABLE.length);
    for (const u of UNTESTABLE) expect(u.reason.length, u.id).toBeGreaterThan(20);
  });
});

describe('a reference platform with a mutant switched on', () => {
  const platform = (m?: Mutant) =>
    createReferencePlatform({
      authority: 'platform.example',
      fetcher: createMemoryFetcher({}),
      ...(m?.platform ? { mutants: [m.platform] } : {}),
      widgets: false,
      purchases: false,
    });
  const unsigned = () =>
    new Request(`https://platform.example${PLATFORM_ROUTES.cliToken}`, { method: 'POST', body: '{}', headers: { [HEADERS.contentType]: 'application/json' } });

  it('the clean platform answers missing_credential with Accept-Signature', async () => {
    const response = await platform().fetch(unsigned(), { clientAddress: '192.0.2.1' });
    expect(response.status).toBe(AUTH_ERRORS.missing_credential.status);
    expect(((await response.json()) as { error_code: string }).error_code).toBe(AUTH_ERRORS.missing_credential.code);
    expect(response.headers.get(HEADERS.acceptSignature)).not.toBeNull();
  });

  it('auth-accept-signature-dropped drops it, and nothing else', async () => {
    const response = await platform(mutant('auth-accept-signature-dropped')).fetch(unsigned(), { clientAddress: '192.0.2.1' });
    expect(response.status).toBe(AUTH_ERRORS.missing_credential.status);
    expect(((await response.json()) as { error_code: string }).error_code).toBe(AUTH_ERRORS.missing_credential.code);
    expect(response.headers.get(HEADERS.acceptSignature)).toBeNull();
    expect(response.headers.get(HEADERS.wwwAuthenticate)).toMatch(/^Bearer /);
  });

  it('a renaming mutant answers the other code', async () => {
    const response = await platform(mutant('auth-missing_credential-answers-signature_invalid')).fetch(unsigned(), { clientAddress: '192.0.2.1' });
    expect(((await response.json()) as { error_code: string }).error_code).toBe(AUTH_ERRORS.signature_invalid.code);
  });
});
