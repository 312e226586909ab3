import { afterEach, describe, expect, test } from 'vitest';
import { askSpendLedger } from '../../src/harness/fixture-client.js';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { overCapReason, SpendLedger, spendWords } from '../../src/harness/spend-ledger.js';

/** --spend-cap holds for the whole run: every suite file, in whatever worker, takes from one allowance. */
describe('the run spending allowance', () => {
  let host: FixtureHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  test('grants payments until the next would pass the cap, and counts what it refused', () => {
    const ledger = new SpendLedger(1000);
    expect(ledger.request(500)).toEqual({ granted: true, spentMinorUnits: 500, capMinorUnits: 1000 });
    expect(ledger.request(500)).toEqual({ granted: true, spentMinorUnits: 1000, capMinorUnits: 1000 });
    expect(ledger.request(1)).toEqual({ granted: false, spentMinorUnits: 1000, capMinorUnits: 1000 });
    expect(ledger.request(250)).toMatchObject({ granted: false });
    expect(ledger.summary()).toEqual({ capMinorUnits: 1000, spentMinorUnits: 1000, refused: 2, refusedMinorUnits: 251 });
  });

  test('refuses an amount that is no whole number of minor units, without counting it', () => {
    const ledger = new SpendLedger(1000);
    for (const amount of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) expect(ledger.request(amount).granted, String(amount)).toBe(false);
    expect(ledger.handle({ amount: '5' }).granted).toBe(false);
    expect(ledger.handle(null).granted).toBe(false);
    expect(ledger.summary()).toEqual({ capMinorUnits: 1000, spentMinorUnits: 0, refused: 0, refusedMinorUnits: 0 });
  });

  test('is one allowance for every client of the fixture host', async () => {
    const ledger = new SpendLedger(1500);
    host = await startFixtureHost({ spender: (message) => ledger.handle(message) });
    const access = { url: host.url, adminUrl: host.adminUrl, token: host.adminToken };
    // Three files asking at once, as workers do: two payments of 500 fit beside a third, the fourth does not.
    const answers = await Promise.all([500, 500, 500, 500].map((amount) => askSpendLedger(access, amount)));
    expect(answers.filter((a) => a.granted)).toHaveLength(3);
    expect(answers.filter((a) => !a.granted)).toHaveLength(1);
    expect(ledger.summary()).toMatchObject({ spentMinorUnits: 1500, refused: 1, refusedMinorUnits: 500 });
  });

  test('a check the cap refuses says which cap would run it', () => {
    expect(overCapReason(500, { granted: false, spentMinorUnits: 4800, capMinorUnits: 5000 })).toBe(
      "needs a higher --spend-cap: paying 500 would pass the run's --spend-cap 5000 (4800 spent so far); --spend-cap 5300 or more would run it",
    );
    expect(spendWords({ capMinorUnits: 5000, spentMinorUnits: 4800, refused: 2, refusedMinorUnits: 1000 })).toBe(
      'spent 4800 of the --spend-cap 5000 (minor units, test tokens); 2 payment(s) refused for the cap: --spend-cap 5800 or more would run them',
    );
  });
});
