import { describe, expect, test } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import type { CheckResult } from '../../src/harness/results.js';
import { defaultDeadlineMs, judgeSetupFaults, plainMessage, selectedCheckCount, stoppedRunResults } from '../../src/harness/run-guard.js';
import { PROJECT_ROOT } from '../paths.js';
import { runCli } from '../cli/run-cli.js';

/** A run ends by itself, and what ends it is said in the suite's words (issue 13). */
const result = (id: string, verdict: CheckResult['verdict'], message?: string, level: CheckResult['level'] = 'MUST'): CheckResult => ({
  id,
  name: id,
  suite: 'suites/4.5-publish.test.ts',
  requirements: ['X'],
  level,
  verdict,
  durationMs: 0,
  ...(message === undefined ? {} : { message }),
});

const HOOK_TIMEOUT =
  'Hook timed out in 2000ms.\nIf this is a long-running hook, pass a timeout value as the last argument or configure it globally with "hookTimeout".';
const TEST_TIMEOUT =
  'Test timed out in 5000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".';

describe('the deadline', () => {
  test('is 60 s plus one per-request timeout per selected check (30 s without --timeout)', () => {
    expect(defaultDeadlineMs(3, 2000)).toBe(66_000);
    expect(defaultDeadlineMs(276, undefined)).toBe(60_000 + 276 * 30_000);
    expect(defaultDeadlineMs(0, 2000)).toBe(62_000);
  });

  test('counts the checks a selection declares, by suites/checks.json', () => {
    const index = readCheckIndex(PROJECT_ROOT)!;
    expect(selectedCheckCount(index, ['suites/2.4-key-directory.test.ts'], [])).toBe(3);
    expect(selectedCheckCount(index, ['suites/2.4-key-directory.test.ts'], ['key-directory.entries'])).toBe(1);
    expect(selectedCheckCount(index, [...new Set(index.checks.map((c) => c.file))], [])).toBe(index.checks.length);
    expect(selectedCheckCount(undefined, [], [])).toBeUndefined();
  });
});

describe("vitest's words", () => {
  test('its timeouts are said plainly, without its advice about configuring it', () => {
    expect(plainMessage(HOOK_TIMEOUT)).toBe("the suite's setup or teardown did not finish within 2000 ms");
    expect(plainMessage(TEST_TIMEOUT)).toBe('the check did not finish within 5000 ms');
    expect(plainMessage('expected 401')).toBe('expected 401');
  });
});

describe('faults around the checks', () => {
  const fault = (name: string | undefined, message: string, unrun: string[], listedAs?: string) => ({
    file: 'suites/4.5-publish.test.ts',
    name,
    message,
    unrun: new Set(unrun),
    listedAs,
  });

  test("a live target's fault in a suite's setup fails the checks it left unrun, and is no harness error", () => {
    const message = "the target's response headers to POST /_reference/folders exceed undici's limit (16384 bytes, Node's --max-http-header-size)";
    const listed = `suites/4.5-publish.test.ts: ${message}`;
    const judged = judgeSetupFaults(
      [fault('TargetFault', message, ['a', 'b'], listed)],
      [result('a', 'not-run', 'skipped without a reason'), result('b', 'not-run', 'skipped without a reason', 'SHOULD'), result('c', 'pass')],
      [listed, 'something else'],
      true,
    );
    expect(judged.harnessErrors).toEqual(['something else']);
    expect(judged.results.map((r) => r.verdict)).toEqual(['fail', 'warn', 'pass']);
    expect(judged.results[0]!.message).toBe(`the suite's setup failed, so the check could not be made: ${message}`);
  });

  test("a live suite's setup that ran out of time is the target's, said plainly", () => {
    const judged = judgeSetupFaults([fault(undefined, HOOK_TIMEOUT, ['a'], `f: ${HOOK_TIMEOUT}`)], [result('a', 'not-run')], [`f: ${HOOK_TIMEOUT}`], true);
    expect(judged.harnessErrors).toEqual([]);
    expect(judged.results[0]).toMatchObject({
      verdict: 'fail',
      message: "the suite's setup failed, so the check could not be made: the suite's setup or teardown did not finish within 2000 ms, waiting on the target",
    });
  });

  test('in-process, or any fault not the target’s, stays a harness error, in plain words', () => {
    const listed = `suites/4.5-publish.test.ts: ${HOOK_TIMEOUT}`;
    const judged = judgeSetupFaults([fault(undefined, HOOK_TIMEOUT, ['a'], listed)], [result('a', 'not-run', 'skipped without a reason')], [listed], false);
    expect(judged.harnessErrors).toEqual(["suites/4.5-publish.test.ts: the suite's setup or teardown did not finish within 2000 ms"]);
    expect(judged.results[0]!.verdict).toBe('not-run');
    const ours = judgeSetupFaults([fault('TypeError', 'x is not a function', ['a'], 'f: x is not a function')], [], ['f: x is not a function'], true);
    expect(ours.harnessErrors).toEqual(['suites/4.5-publish.test.ts: x is not a function']);
  });
});

describe('a stopped run', () => {
  test('reports each check once, a verdict over a not-run, and says why the rest did not run', () => {
    const results = stoppedRunResults(
      [
        result('a', 'fail', 'the target sent no answer'),
        result('b', 'not-run', 'The test run was aborted by the user.'),
        result('a', 'fail', 'the target sent no answer'),
        result('c', 'not-run', 'needs clock-control'),
        result('b', 'not-run', 'The test run was aborted by the user.'),
      ],
      'its deadline passed: 15 s, set by --deadline',
    );
    expect(results.map((r) => [r.id, r.verdict, r.message])).toEqual([
      ['a', 'fail', 'the target sent no answer'],
      ['b', 'not-run', 'not run: the run stopped before this check (its deadline passed: 15 s, set by --deadline)'],
      ['c', 'not-run', 'needs clock-control'],
    ]);
  });
});

describe('a run stopped before some files reported', () => {
  test('lists every selected check, the unreached ones not run with the reason', () => {
    const selected = ['a', 'b', 'c'].map((id) => ({
      id,
      title: `check ${id}`,
      file: 'suites/2.4-key-directory.test.ts',
      requirements: ['R'],
      level: 'MUST' as const,
    }));
    const results = stoppedRunResults([result('a', 'pass')], 'SIGINT', selected);
    expect(results.map((r) => [r.id, r.verdict, r.message, r.suite])).toEqual([
      ['a', 'pass', undefined, expect.any(String)],
      ['b', 'not-run', 'not run: the run stopped before this check (SIGINT)', 'suites/2.4-key-directory.test.ts'],
      ['c', 'not-run', 'not run: the run stopped before this check (SIGINT)', 'suites/2.4-key-directory.test.ts'],
    ]);
  });
});

describe('run --max-body and --deadline', () => {
  test.each([
    [['run', '--base-url', 'http://127.0.0.1:9', '--max-body', '0'], '--max-body must be a size of at least 1 byte'],
    [['run', '--base-url', 'http://127.0.0.1:9', '--max-body', '64 parsecs'], '--max-body must be a size'],
    [['run', '--max-body', '1MiB'], '--max-body goes with --base-url or --agent-url'],
    [['run', '--deadline', '0'], '--deadline must be at least 1 second'],
    [['run', '--deadline', '1.5'], '--deadline must be a whole number'],
  ])('%j is a usage error', async (argv, said) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(said);
  });

  test('--help explains both, and the deadline formula', async () => {
    const { stdout } = await runCli(['run', '--help']);
    expect(stdout).toContain('--max-body SIZE');
    expect(stdout).toContain('--deadline SECONDS');
    expect(stdout).toContain('60 s + (selected checks) x (--timeout, else 30 s)');
  });
});
