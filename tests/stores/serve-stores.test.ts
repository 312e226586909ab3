import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/errors.js';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { createServeCommand } from '../../src/cli/serve.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { freePort } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'apc-serve-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `serve` in-process until `stop` is called: its exit code or what it threw, and its output. */
function serve(argv: string[]) {
  let out = '';
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const command = createServeCommand(() => stopped);
  const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, cwd: dir };
  const ran = (async () => command.run(parseCommandArgs(command, argv), io))();
  return {
    ran: ran.then(
      (code) => ({ code }),
      (error: unknown) => ({ error }),
    ),
    stop,
    out: () => out,
  };
}

describe('serve --store and --db', () => {
  it.each([
    ['a Redis that does not answer', ['--store', 'redis://127.0.0.1:1'], /^cannot reach the store at redis:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/],
    [
      'a PostgreSQL that does not answer',
      ['--db', 'postgres://apc:secret@127.0.0.1:1/apc'],
      /^cannot reach the database at postgres:\/\/apc:\*\*\*@127\.0\.0\.1:1\/apc: /,
    ],
  ])('exits 3 naming the store for %s, as for a target that does not answer', async (_name, argv, message) => {
    const result = await serve(argv).ran;
    expect('error' in result && exitCodeOf(result.error)).toBe(3);
    expect((result as { error: Error }).error.message).toMatch(message);
  });

  it('exits 2 for a Redis that answers but refuses the password: the fix is in the command', async () => {
    // A server speaking just enough RESP to refuse every command, as a Redis with another password does.
    const server = createServer((socket) => socket.on('data', () => socket.write('-WRONGPASS invalid username-password pair or user is disabled.\r\n')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await serve(['--store', `redis://:wrong@127.0.0.1:${port}`]).ran;
      expect('error' in result && exitCodeOf(result.error)).toBe(2);
      expect((result as { error: Error }).error.message).toMatch(/^cannot reach the store at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/?: WRONGPASS/);
    } finally {
      server.close();
    }
  });

  it.each([
    ['a file that is not a database', ['--db', '.'], /^cannot open the database file /],
    ['a store that is not a redis URL', ['--store', 'http://127.0.0.1:6379'], /^--store must be a redis:\/\/ or rediss:\/\/ URL/],
    ['a public URL with a path', ['--public-url', 'https://platform.example/api'], /^--public-url must be an http or https origin/],
    ['--public-url with --authority', ['--public-url', 'https://platform.example', '--authority', 'a.example'], /give it or --authority, not both/],
  ])('exits 2 naming the problem for %s', async (_name, argv, message) => {
    const result = await serve(argv).ran;
    expect('error' in result && exitCodeOf(result.error)).toBe(2);
    expect((result as { error: Error }).error.message).toMatch(message);
  });

  it('keeps purchase records in the SQLite file named, answering for --public-url', async () => {
    const port = await freePort();
    const run = serve(['--port', String(port), '--db', 'purchases.sqlite', '--public-url', 'https://platform.example']);
    for (let i = 0; i < 500 && !run.out().includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(run.out()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n/);
    const asked = await fetch(`http://127.0.0.1:${port}${PLATFORM_ROUTES.mppCredits}`, { method: 'POST' });
    expect(asked.status).toBe(402);
    expect(asked.headers.get('www-authenticate')).toContain('realm="platform.example"');
    run.stop();
    expect(await run.ran).toEqual({ code: 0 });
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(dir, 'purchases.sqlite'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM challenges').get()).toEqual({ n: 1 });
    db.close();
  });
});
