import { describe, expect, it } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import { PROJECT_ROOT } from '../paths.js';
import { runCli, STACK_LINE } from './run-cli.js';

const index = readCheckIndex(PROJECT_ROOT)!;

interface Listed {
  id: string;
  section: string;
  file: string;
  requirements: string[];
  level: string;
  title: string;
  needs: string[];
}

describe('agent-platform-conformance list', () => {
  it('prints every check of suites/checks.json with --json: id, section, file, requirements, level, title, needs', async () => {
    const { code, stdout, stderr } = await runCli(['list', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const { checks } = JSON.parse(stdout) as { checks: Listed[] };
    expect(checks.length).toBe(index.checks.length);
    expect(checks.find((c) => c.id === 'key-directory.media-type')).toEqual({
      id: 'key-directory.media-type',
      section: '2.4',
      file: 'suites/2.4-key-directory.test.ts',
      requirements: ['KEY-DIRECTORY-MEDIA-TYPE'],
      level: 'MUST',
      title: 'served at the origin with its media type',
      needs: [],
    });
    expect(checks.find((c) => c.id === 'key-directory.lists-hosted-agents')?.needs).toEqual(['agent-url']);
    for (const c of checks) expect(c.needs, c.id).toEqual(index.checks.find((k) => k.id === c.id)?.needs ?? []);
    expect(new Set(checks.map((c) => c.section))).toContain('6');
    for (const c of checks) expect(c.file.startsWith(`suites/${c.section}-`), c.id).toBe(true);
  });

  it('prints one line per check under its suite file, and the count', async () => {
    const { code, stdout } = await runCli(['list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^2\.4 suites\/2\.4-key-directory\.test\.ts \(3 checks\)\n {2}key-directory\.entries +MUST +KEY-DIRECTORY-ENTRIES {2}\(needs --agent-url\)\n/,
    );
    expect(stdout).toMatch(/^ {2}key-directory\.media-type +MUST +KEY-DIRECTORY-MEDIA-TYPE$/m);
    const needing = index.checks.filter((c) => c.needs?.length).length;
    expect(stdout).toContain(
      `\n${index.checks.length} checks in ${new Set(index.checks.map((c) => c.file)).size} suite files; ${needing} need more than --base-url to run live`,
    );
  });

  it('says after a check what it needs to run live, as the verdict line words it', async () => {
    const { stdout } = await runCli(['list', '--only', '2.4', '--only', '7.1']);
    expect(stdout).toMatch(/^ {2}key-directory\.lists-hosted-agents +MUST +KEY-DIRECTORY-ENTRIES {2}\(needs --agent-url\)$/m);
    expect(stdout).toMatch(/^ {2}bridge\.permission +MUST +\S+.* {2}\(needs --widget-host-url, Chromium\)$/m);
    expect(stdout).toMatch(/^ {2}key-directory\.media-type +MUST +KEY-DIRECTORY-MEDIA-TYPE$/m);
  });

  it('selects with --only and --skip as run does', async () => {
    const { code, stdout } = await runCli([
      'list',
      '--only',
      'KEY-DIRECTORY-ENTRIES',
      '--only',
      'key-directory.media-type',
      '--skip',
      'key-directory.entries',
      '--json',
    ]);
    expect(code).toBe(0);
    const ids = (JSON.parse(stdout) as { checks: Listed[] }).checks.map((c) => c.id).sort();
    const expected = index.checks
      .filter((c) => c.requirements.includes('KEY-DIRECTORY-ENTRIES') || c.id === 'key-directory.media-type')
      .map((c) => c.id)
      .filter((id) => id !== 'key-directory.entries');
    expect(expected).toEqual(expect.arrayContaining(['key-directory.lists-hosted-agents', 'key-directory.media-type']));
    expect(ids).toEqual(expected.sort());
  });

  it('refuses a word that names nothing, exit 2, without a stack trace', async () => {
    const { code, stdout, stderr } = await runCli(['list', '--skip', 'key-directory.media-typ']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('agent-platform-conformance: --skip key-directory.media-typ: key-directory.media-typ is neither a section');
    expect(stderr).toContain('(did you mean key-directory.media-type?)');
    expect(stderr).not.toMatch(STACK_LINE);
    const section = await runCli(['list', '--only', '9.9']);
    expect(section.code).toBe(2);
    expect(section.stderr).toContain('no suite covers section 9.9');
  });

  it('takes no arguments', async () => {
    const { code, stderr } = await runCli(['list', '7.3']);
    expect(code).toBe(2);
    expect(stderr).toContain('list takes no arguments, got "7.3"');
  });
});
