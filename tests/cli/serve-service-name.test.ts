import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { createServeCommand } from '../../src/cli/serve.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
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

describe('serve --service-name', () => {
  it("answers with the deployment's names: Acme-Terms-Version on a 402, realm=acme on a 401", async () => {
    const run = runServe(['--service-name', 'Acme']);
    for (let i = 0; i < 500 && !run.out().includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    const origin = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(run.out())?.[1];
    expect(origin).toBeDefined();
    const paid = await fetch(`${origin}${PLATFORM_ROUTES.mppCredits}`, { method: 'POST' });
    await paid.arrayBuffer();
    expect(paid.status).toBe(402);
    expect(paid.headers.get('acme-terms-version')).not.toBeNull();
    expect(paid.headers.get(HEADERS.termsVersion)).toBeNull();
    const refused = await fetch(`${origin}${PLATFORM_ROUTES.cliToken}`, { method: 'POST', headers: { [HEADERS.signatureInput]: 'not a dictionary' } });
    await refused.arrayBuffer();
    expect(refused.status).toBe(401);
    expect(refused.headers.get(HEADERS.wwwAuthenticate)).toMatch(/^Bearer realm="acme"/);
    run.stop();
    expect(await run.code).toBe(0);
  }, 60_000);

  it('refuses a name that is not letters, digits and hyphens, naming the option', async () => {
    await expect(runServe(['--service-name', 'Acme Corp']).code).rejects.toThrow(/--service-name/);
  });
});
