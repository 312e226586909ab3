import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientCasesMarkdown } from '../../scripts/client-cases-doc.js';
import { CLIENT_RULE_LIST } from '../../src/client-judge/rules.js';
import { CHECK_ID_PATTERN } from '../../src/contract/check.js';
import { CLIENT_CASES } from '../../src/scenarios/clients/cases.js';
import { CLIENT_REQUIREMENT_LIST } from '../../src/spec/client-requirements.js';
import { PROJECT_ROOT } from '../paths.js';

describe('the client cases and checks', () => {
  it('docs/client-cases.md is what npm run vectors writes from the cases and rules', () => {
    expect(readFileSync(`${PROJECT_ROOT}docs/client-cases.md`, 'utf8')).toBe(clientCasesMarkdown());
  });

  it('one check per client requirement, each id a stable slug, and every rule judged by some case', () => {
    expect(CLIENT_RULE_LIST.map((r) => r.requirement.id).sort()).toEqual(CLIENT_REQUIREMENT_LIST.map((r) => r.id).sort());
    for (const r of CLIENT_RULE_LIST) {
      expect(r.id).toMatch(CHECK_ID_PATTERN);
      expect(
        CLIENT_CASES.some((c) => c.rules.includes(r.key)),
        r.id,
      ).toBe(true);
    }
    const ids = CLIENT_CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(CHECK_ID_PATTERN);
  });
});
