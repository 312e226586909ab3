import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { createServeCommand } from '../../src/cli/serve.js';
import { KEY_FILE_MODE, KEY_FILES } from '../../src/reference/agent/keys.js';
import { WELL_KNOWN } from '../../src/spec/wire.js';
import { PROJECT_ROOT } from '../paths.js';

function runServe(argv: string[]) {
  let stdout = '';
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const command = createServeCommand(() => stopped);
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => undefined }, cwd: PROJECT_ROOT };
  const code = command.run(parseCommandArgs(command, argv), io);
  return { code, stop, out: () => stdout };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('serve with the reference agent', () => {
  it('prints `listening on` first, then `agent NAME at URL`, and keeps the keys in --keys-dir with mode 0600', async () => {
    const keysDir = join(await mkdtemp(join(tmpdir(), 'apc-serve-keys-')), 'keys');
    const run = runServe(['--agent-name', 'bob', '--keys-dir', keysDir]);
    await until(() => run.out().split('\n').length > 2);
    const [first, second] = run.out().split('\n');
    const origin = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first!)?.[1];
    expect(origin).toBeDefined();
    expect(second).toBe(`agent bob at ${origin}/agents/bob`);
    const card = (await (await fetch(`${origin}/agents/bob${WELL_KNOWN.agentCard}`)).json()) as { url: string };
    expect(card.url).toBe(`${origin}/agents/bob`);
    for (const file of Object.values(KEY_FILES)) expect((await stat(join(keysDir, file))).mode & 0o777).toBe(KEY_FILE_MODE);
    run.stop();
    expect(await run.code).toBe(0);
  }, 60_000);

  it('refuses an agent name that cannot be a path segment', async () => {
    const run = runServe(['--agent-name', 'a/b']);
    await expect(run.code).rejects.toThrow(/--agent-name/);
  });
});
