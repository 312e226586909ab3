import { describe, expect, it } from 'vitest';
import { SIGNED_REQUEST_GROUPS } from '../../src/scenarios/signed/index.js';
import { SCENARIO_LIMITS } from '../../src/scenarios/signed/limits.js';
import { LIMIT_LIST } from '../../src/spec/limits.js';

describe('the limits the signed-request scenarios test', () => {
  it('names existing scenarios and catalogue limits only', () => {
    const scenarios = new Set(SIGNED_REQUEST_GROUPS.flatMap((g) => g.scenarios.map((s) => s.id)));
    const limits = new Set(LIMIT_LIST.map((l) => l.id));
    for (const [id, named] of Object.entries(SCENARIO_LIMITS)) {
      expect(scenarios.has(id), `${id} is a scenario`).toBe(true);
      for (const limit of named) expect(limits.has(limit), `${limit} is a limit of section 8`).toBe(true);
    }
  });
});
