import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCommand } from '../../src/cli/run.js';
import { PROJECT_ROOT } from '../paths.js';

/**
 * action.yml and its step, scripts/action-run.mjs (tests/e2e/action.test.ts runs the step): every input reaches the
 * script, every option the script passes is one of run's, every output is one the script writes.
 */
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: {
    using: string;
    steps: Array<{ id?: string; uses?: string; run?: string; env?: Record<string, string>; if?: string; with?: Record<string, unknown> }>;
  };
}

const action = parse(readFileSync(`${PROJECT_ROOT}action.yml`, 'utf8')) as Action;
const script = readFileSync(`${PROJECT_ROOT}scripts/action-run.mjs`, 'utf8');
const step = action.runs.steps.find((s) => s.id === 'run')!;
const envName = (input: string) => `INPUT_${input.toUpperCase().replaceAll('-', '_')}`;

describe('action.yml', () => {
  it('is a composite action whose run step gets every input as INPUT_*, and the script reads each', () => {
    expect(action.runs.using).toBe('composite');
    expect(step.run).toBe('node "$GITHUB_ACTION_PATH/scripts/action-run.mjs"');
    const passed = Object.keys(action.inputs).filter((name) => !['node-version', 'artifact-name'].includes(name));
    expect(Object.keys(step.env ?? {}).sort()).toEqual(passed.map(envName).sort());
    for (const name of passed) {
      expect(step.env![envName(name)]).toBe(`\${{ inputs.${name} }}`);
      expect(script, name).toMatch(new RegExp(`(input|words)\\('${name}'\\)|\\['${name}', '[a-z-]+'\\]`));
    }
    expect(action.inputs['base-url']!.required).toBe(true);
  });

  it('passes only options run has', () => {
    const args = script.slice(script.indexOf('function runArgs('), script.indexOf('function cli('));
    const options = new Set([...args.matchAll(/'--([a-z-]+)'/g), ...args.matchAll(/\['[a-z-]+', '([a-z-]+)'\]/g)].map((m) => m[1]!));
    expect(options.size).toBeGreaterThan(8);
    for (const option of options) expect(Object.keys(runCommand.options), option).toContain(option);
  });

  it('exposes outputs the script writes, and uploads the reports folder even when the run fails', () => {
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);
      const counted = ['total', 'pass', 'fail', 'warn', 'not-run', 'error'].includes(name);
      if (!counted) expect(script, name).toContain(`output('${name}'`);
    }
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload).toMatchObject({ uses: 'actions/upload-artifact@v4', if: 'always()', with: { path: `\${{ inputs.out }}` } });
  });
});
