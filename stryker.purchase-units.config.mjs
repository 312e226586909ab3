import { readFileSync } from 'node:fs';

/**
 * `npm run mutation:purchase-units`: the code of src/purchase that no conformance check can hold to account, killed
 * by its unit and adapter tests instead (docs/mutation.md):
 * - the judge's readings of what a deployment sends (inband/validate.ts and its problems.ts, the frames; challenge-parse.ts and
 *   auth-params-parse.ts with quotable.ts, the challenges): a conformant target never sends the bad value that shows a loosened
 *   reading; the self-test's catalogue and these tests do;
 * - the buyer's side (buyer/, credential-write.ts): what a buyer decides and sends, which the suites use to build
 *   their own requests and no deployment runs;
 * - the in-memory adapters and fakes of the ports: held by the store contract every real adapter passes too;
 * - transfer/settle.ts, a stablecoin settlement report: no route takes one (section 3 credits a settlement the card
 *   processor reports; a transfer completes when its credential is presented again, 7.4 tempo_settlement_pending).
 */
const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export const HELD_BY_UNIT_TESTS = [
  'src/purchase/inband/validate.ts',
  'src/purchase/inband/problems.ts',
  'src/purchase/challenge-parse.ts',
  'src/purchase/auth-params-parse.ts',
  'src/purchase/quotable.ts',
  'src/purchase/buyer/**/*.ts',
  'src/purchase/credential-write.ts',
  'src/purchase/ports/memory.ts',
  'src/purchase/ports/stablecoin-memory.ts',
  'src/purchase/sale/memory.ts',
  'src/purchase/transfer/settle.ts',
];

export default {
  ...base,
  mutate: HELD_BY_UNIT_TESTS,
  vitest: { ...base.vitest, configFile: 'vitest.mutation.purchase-units.config.ts' },
  incremental: true,
  incrementalFile: 'mutation/purchase-units.incremental.json',
  jsonReporter: { fileName: 'reports/mutation/purchase-units.json' },
  htmlReporter: { fileName: 'reports/mutation/purchase-units.html' },
  tempDirName: '.stryker-tmp-purchase-units',
};
