import { describe, expect, test } from 'vitest';
import { HEADERS } from '../../src/spec/headers.js';
import { deployedHeader, isServiceName, namedText, NEUTRAL_NAMING, neutralHeader, SERVICE_NAMED_HEADERS, serviceNaming } from '../../src/spec/naming.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { BEARER_CHALLENGE } from '../../src/spec/wire.js';

describe("a deployment's own names (src/spec/naming.ts)", () => {
  test('the names carrying Service are taken from the catalogue: every header with a service segment', () => {
    expect([...SERVICE_NAMED_HEADERS].sort()).toEqual(
      [HEADERS.ownerKey, HEADERS.termsVersion, HEADERS.termsAccepted, HEADERS.paymentMethods, HEADERS.purchase].sort(),
    );
  });

  test('a name replaces the service segment, lower case, in each header and in the realm', () => {
    const acme = serviceNaming('Acme');
    expect(acme.serviceName).toBe('Acme');
    expect(acme.headers).toEqual({
      'x-service-owner-key': 'x-acme-owner-key',
      'service-terms-version': 'acme-terms-version',
      'service-terms-accepted': 'acme-terms-accepted',
      'service-payment-methods': 'acme-payment-methods',
      'service-purchase': 'acme-purchase',
    });
    expect(acme.realm).toBe('acme');
    expect(serviceNaming('Big-Co2').headers[HEADERS.termsVersion]).toBe('big-co2-terms-version');
  });

  test('without a name the names are the spec’s own', () => {
    expect(serviceNaming()).toBe(NEUTRAL_NAMING);
    expect(NEUTRAL_NAMING.serviceName).toBeUndefined();
    expect(NEUTRAL_NAMING.realm).toBe(BEARER_CHALLENGE.realm);
    for (const name of SERVICE_NAMED_HEADERS) expect(deployedHeader(name)).toBe(name);
  });

  test('a name must be letters, digits and hyphens', () => {
    for (const bad of ['', 'Ac me', 'acme_co', '-acme', 'acme-', 'a--b', 'ac/me', 'ácme']) {
      expect(isServiceName(bad), bad).toBe(false);
      expect(() => serviceNaming(bad), bad).toThrow(TypeError);
    }
    for (const good of ['Acme', 'acme', 'ACME', 'big-co', 'x1']) expect(isServiceName(good), good).toBe(true);
  });

  test('deployedHeader maps the names carrying Service in any case and leaves the others alone; neutralHeader reverses it', () => {
    const acme = serviceNaming('Acme');
    expect(deployedHeader(HEADERS.termsAccepted, acme)).toBe('acme-terms-accepted');
    expect(deployedHeader('Service-Purchase', acme)).toBe('acme-purchase');
    expect(deployedHeader(HEADERS.paymentAuthorization, acme)).toBe(HEADERS.paymentAuthorization);
    expect(deployedHeader('X-Other', acme)).toBe('X-Other');
    expect(neutralHeader('Acme-Terms-Version', acme)).toBe(HEADERS.termsVersion);
    expect(neutralHeader(HEADERS.termsVersion, acme)).toBeUndefined();
  });

  test("namedText writes a spec sentence with the deployment's header names, and leaves it as it is without a name", () => {
    const condition = PURCHASE_ERRORS.ownerless_balance_cap.condition;
    expect(namedText(condition)).toBe(condition);
    expect(namedText(condition, serviceNaming('Acme'))).toContain('X-Acme-Owner-Key');
    expect(namedText(condition, serviceNaming('Acme'))).not.toContain('Service');
  });
});
