import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { LiveTarget } from '../../src/harness/targets/live.js';
import { suiteWidgetFiles } from '../../src/harness/widget-bundle.js';
import { jsonBody, WidgetSession } from '../../src/harness/widget-session.js';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { WIDGET_MANIFEST } from '../../src/spec/widgets.js';
import { WELL_KNOWN } from '../../src/spec/wire.js';
import { PROJECT_ROOT } from '../paths.js';

const LISTENING = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/;
/** Issue 13: the loop runs after an await, where node:vm's own timeout does not reach. */
const FROZEN_TOOL = 'module.exports = async () => { await null; for (;;) {} };\n';

type ServeProcess = ChildProcessByStdio<null, Readable, Readable>;

async function startServe(): Promise<{ child: ServeProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'serve', '--port', '0', '--allow-insecure-fixtures'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', () => reject(new Error(`serve exited before printing: ${stderr}`)));
  });
  lines.close();
  const port = LISTENING.exec(first)?.[1];
  if (!port) throw new Error(`serve printed ${first}`);
  return { child, origin: `http://127.0.0.1:${port}` };
}

async function stopServe(child: ServeProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(forced);
}

describe('serve with a widget tool that never ends (issue 13)', () => {
  let serve: { child: ServeProcess; origin: string } | undefined;
  let fixture: FixtureHost | undefined;
  let target: LiveTarget | undefined;
  let mcp: Client | undefined;

  beforeAll(async () => {
    fixture = await startFixtureHost();
    serve = await startServe();
    target = new LiveTarget({
      baseUrl: serve.origin,
      fixture: { url: fixture.url, adminUrl: fixture.adminUrl, token: fixture.adminToken },
      runId: 'frozen-tool',
    });
    const session = new WidgetSession(target, 'frozen-tool');
    await session.open();
    const files = { ...suiteWidgetFiles('Frozen tool'), [WIDGET_MANIFEST.defaultToolFile('refresh')]: FROZEN_TOOL };
    const upload = await session.uploadFolder('alice', files);
    const { folderId } = jsonBody(upload.response) as { folderId: string };
    const published = await session.publish('alice', folderId);
    const { postId } = jsonBody(published.response) as { postId: string };
    expect(published.response.status).toBe(201);
    // The MCP endpoint is public: the client sends no credential.
    mcp = await session.mcpClient(postId);
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await target?.close();
    await fixture?.close();
    if (serve) await stopServe(serve.child);
  }, 20_000);

  it('keeps answering other routes while the tool spins, answers the call with timeout, then runs the next call', async () => {
    const keyDirectory = `${serve!.origin}${WELL_KNOWN.keyDirectory}`;
    let spinning = true;
    const call = mcp!.callTool({ name: 'refresh', arguments: {} }).finally(() => (spinning = false));
    // Awaited below; this only keeps a failure before then from also surfacing as an unhandled rejection.
    call.catch(() => {});
    let answeredWhileSpinning = 0;
    while (spinning) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Before the fix the first of these never answered: serve's one thread was in the tool's loop.
      const directory = await fetch(keyDirectory, { signal: AbortSignal.timeout(5000) });
      expect(directory.status).toBe(200);
      await directory.arrayBuffer();
      if (spinning) answeredWhileSpinning++;
    }
    expect(answeredWhileSpinning).toBeGreaterThan(0);

    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: BRIDGE_ERRORS.timeout.code } });

    const next = await mcp!.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(next.structuredContent).toEqual({ city: 'Oslo', forecast: 'sunny in Oslo' });
    expect((await fetch(keyDirectory, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
  });
});
