import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { PROJECT_ROOT } from '../paths.js';
import { runCli, STACK_LINE } from './run-cli.js';

const CONTRACT_COMMANDS = ['run', 'list', 'verify', 'sign', 'keygen', 'check-agent', 'check-widget', 'serve'];

describe('agent-platform-conformance', () => {
  it('lists every command of the contract in --help', async () => {
    const { code, stdout, stderr } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const name of CONTRACT_COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(COMMANDS.map((c) => c.name).sort()).toEqual([...CONTRACT_COMMANDS].sort());
  });

  it('prints a usage line, options and an example for each command, with --help, -h or help NAME', async () => {
    for (const name of CONTRACT_COMMANDS) {
      for (const argv of [
        [name, '--help'],
        [name, '-h'],
        ['help', name],
      ]) {
        const { code, stdout } = await runCli(argv);
        expect(code, argv.join(' ')).toBe(0);
        expect(stdout).toMatch(new RegExp(`^Usage: agent-platform-conformance ${name}`));
        expect(stdout).toMatch(/\nOptions:\n/);
        expect(stdout).toMatch(new RegExp(`\\nExamples?:\\n  agent-platform-conformance ${name}`));
      }
    }
  });

  it('answers --help even beside options it does not know', async () => {
    const { code, stdout } = await runCli(['sign', '--bogus', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: agent-platform-conformance sign/);
  });

  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { code, stdout } = await runCli([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${version}\n`);
    }
  });

  it('exits 2 and points at --help for an unknown command', async () => {
    const { code, stdout, stderr } = await runCli(['sing']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('agent-platform-conformance: unknown command "sing" (did you mean sign?)\nRun \'agent-platform-conformance --help\' for usage.\n');
  });

  it("exits 2 and points at the command's --help for an unknown option", async () => {
    const { code, stderr } = await runCli(['keygen', '--outdir', 'x']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "agent-platform-conformance: unknown option --outdir for keygen (did you mean --out?)\nRun 'agent-platform-conformance keygen --help' for usage.\n",
    );
  });

  it('exits 2 with the program help on stderr when no command is given', async () => {
    const { code, stdout, stderr } = await runCli([]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^agent-platform-conformance .*\n\nUsage: agent-platform-conformance <command>/);
  });

  it('runs every command of the contract: none is listed as not available', async () => {
    const { stdout } = await runCli(['--help']);
    expect(stdout).not.toMatch(/not available in this version yet/);
    expect(COMMANDS.filter((c) => !c.available).map((c) => c.name)).toEqual([]);
  });

  it('reports every usage error on stderr in one message, never with a stack trace', async () => {
    const invocations = [
      ['--bogus'],
      ['help', 'nope'],
      ['help', 'sign', 'verify'],
      ['verify'],
      ['verify', 'a.json', 'b.json'],
      ['verify', '--json=yes', 'a.json'],
      ['sign'],
      ['sign', '--key'],
      ['sign', '--key', 'k.json', '--key', 'k.json', '--key', 'k.json'],
      ['keygen', '--agent-url', 'https://a.example', '--agent-url', 'https://b.example', '--out', 'x'],
      ['keygen', 'extra'],
      ['serve', '--port'],
    ];
    for (const argv of invocations) {
      const { code, stdout, stderr } = await runCli(argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(stdout, argv.join(' ')).toBe('');
      expect(stderr, argv.join(' ')).toMatch(/^agent-platform-conformance: \S/);
      expect(stderr, argv.join(' ')).not.toMatch(STACK_LINE);
      expect(stderr, argv.join(' ')).toMatch(/Run 'agent-platform-conformance( [a-z-]+)? --help' for usage\.\n$/);
    }
  });

  it('names the problem in each usage error', async () => {
    const messages: Array<[string[], string]> = [
      [['verify'], 'verify needs CASE.json'],
      [['verify', 'a.json', 'b.json'], 'unexpected argument "b.json" (verify takes CASE.json)'],
      [['verify', '--json=yes', 'a.json'], '--json takes no value'],
      [['sign', '--key'], '--key needs a value'],
      [['keygen', '--agent-url', 'https://a.example', '--agent-url', 'https://b.example', '--out', 'x'], '--agent-url is given more than once'],
      [['keygen', 'extra'], 'keygen takes no arguments, got "extra"'],
    ];
    for (const [argv, message] of messages) {
      const { stderr } = await runCli(argv);
      expect(stderr.split('\n')[0]).toBe(`agent-platform-conformance: ${message}`);
    }
  });
});
