import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { LIMITS } from '../../src/spec/limits.js';
import { WIDGET_PROBLEMS } from '../../src/spec/widgets.js';
import { defaultCspPolicy } from '../../src/widgets/csp/policy.js';
import { runCli, STACK_LINE } from './run-cli.js';

const FIXTURES = 'tests/fixtures/widgets';
const P = WIDGET_PROBLEMS;

interface Report {
  valid: boolean;
  errors: Array<{ code: string; path: string; message: string }>;
  csp: { policy: string; fallback: boolean };
}

describe('check-widget FOLDER', () => {
  test('a valid folder: exit 0, the JSON document of docs/contracts.md, the merged policy', async () => {
    const { code, stdout, stderr } = await runCli(['check-widget', `${FIXTURES}/valid`, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(EXIT.ok);
    const report = JSON.parse(stdout) as Report;
    expect(Object.keys(report)).toEqual(['valid', 'errors', 'csp']);
    expect(report).toEqual({
      valid: true,
      errors: [],
      csp: {
        policy:
          "default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com; style-src 'self' 'unsafe-inline' https://cdn.example.com; img-src 'self' data: https://cdn.example.com; media-src 'self' data:; connect-src https://api.example.com wss://api.example.com; frame-src 'none'; object-src 'none'; base-uri 'self'",
        fallback: false,
      },
    });
  });

  test('an invalid folder: exit 1, every problem with code, pointer or file path and message, and the fallback policy', async () => {
    const [json, text] = await Promise.all([runCli(['check-widget', `${FIXTURES}/invalid`, '--json']), runCli(['check-widget', `${FIXTURES}/invalid`])]);
    expect(json.code).toBe(EXIT.expectationFailed);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.valid).toBe(false);
    expect(report.errors.map(({ code, path }) => [code, path])).toEqual([
      [P.manifestInvalid.code, '/tools/0/_meta/ui/visibility/1'],
      [P.cspDomainRejected.code, '/_meta/ui/csp/connectDomains/1'],
      [P.cspDomainRejected.code, '/_meta/ui/csp/frameDomains/0'],
      [P.entryNotLinked.code, 'index.html'],
    ]);
    expect(report.errors[2]!.message).toContain('write the bare domain (embed.example.com)');
    expect(report.csp).toEqual({ policy: defaultCspPolicy(), fallback: true });

    expect(text.code).toBe(EXIT.expectationFailed);
    expect(text.stdout).toMatch(/^widget bundle tests\/fixtures\/widgets\/invalid: invalid, 4 problems$/m);
    for (const e of report.errors) expect(text.stdout).toContain(`  ${e.code} at ${e.path}: ${e.message}\n`);
    expect(text.stdout).toContain(`  ${defaultCspPolicy()}\n`);
    expect(text.stdout).toMatch(/restrictive default/);
  });

  test('a single HTML file is judged as the publish wraps it (2.5): valid without widget.json, exit 0', async () => {
    const [json, text] = await Promise.all([
      runCli(['check-widget', `${FIXTURES}/single.html`, '--json']),
      runCli(['check-widget', `${FIXTURES}/single.html`]),
    ]);
    expect(json.code).toBe(EXIT.ok);
    expect((JSON.parse(json.stdout) as Report).errors).toEqual([]);
    expect((JSON.parse(json.stdout) as Report).valid).toBe(true);
    expect(text.code).toBe(EXIT.ok);
    expect(text.stdout).toMatch(
      /^widget bundle tests\/fixtures\/widgets\/single\.html \(a single HTML file, judged as the publish wraps it: index\.html beside the widget\.json the platform writes\): valid\n/,
    );
  });

  test('a single HTML file whose manifest link leads elsewhere fails entry_not_linked, exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apc-widget-'));
    await writeFile(join(dir, 'card.html'), '<!doctype html><html><head><link rel="widget-manifest" href="manifest.json"></head></html>');
    const { code, stdout } = await runCli(['check-widget', join(dir, 'card.html'), '--json']);
    expect(code).toBe(EXIT.expectationFailed);
    expect((JSON.parse(stdout) as Report).errors.map((e) => [e.code, e.path])).toEqual([[P.entryNotLinked.code, 'index.html']]);
  });

  test('a function source over 64 KB is CODE_TOO_LARGE', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apc-widget-'));
    await mkdir(join(dir, 'tools'));
    await writeFile(join(dir, 'widget.json'), JSON.stringify({ name: 'w', version: '1', tools: [{ name: 'big' }] }));
    await writeFile(join(dir, 'index.html'), '<link rel="widget-manifest" href="widget.json">');
    await writeFile(join(dir, 'tools', 'big.js'), Buffer.alloc(LIMITS.functionSourceSize.value + 1, 0x20));
    const { code, stdout } = await runCli(['check-widget', dir, '--json']);
    expect(code).toBe(EXIT.expectationFailed);
    expect((JSON.parse(stdout) as Report).errors).toEqual([
      { code: P.codeTooLarge.code, path: 'tools/big.js', message: expect.stringContaining(`at most ${LIMITS.functionSourceSize.value} bytes`) },
    ]);
  });

  test('usage errors exit 2 with one clear message and no stack trace', async () => {
    const [missing, none] = await Promise.all([runCli(['check-widget', `${FIXTURES}/no-such-folder`]), runCli(['check-widget'])]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(`agent-platform-conformance: cannot read widget folder "${FIXTURES}/no-such-folder": no such folder or file\n`);

    expect(none.code).toBe(EXIT.usage);
    expect(none.stderr).toMatch(/^agent-platform-conformance: check-widget needs FOLDER\n/);
    for (const r of [missing, none]) expect(r.stderr).not.toMatch(STACK_LINE);
  });
});
