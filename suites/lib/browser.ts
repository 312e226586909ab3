import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import type { Target } from '../../src/harness/target.js';

/** Debian's Chromium, which .ci/run installs; CHROMIUM_PATH names another (`run --chromium PATH` too, for a run). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags a headless Chromium needs on a machine with a closed network (no background connections, no sandbox as root). */
export const CHROMIUM_LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Which Chromium a suite file launches: the run's `--chromium PATH`, else CHROMIUM_PATH or Debian's. */
export interface ChromiumChoice {
  readonly path: string;
  /** Where the path came from, for the reason a check is not run: `--chromium` or the environment. */
  readonly option?: '--chromium';
}

/** Headless Chromium for one suite file, or why there is none (the checks are then not-run with it). */
async function launchChromium(choice: ChromiumChoice): Promise<Browser | string> {
  const named = choice.option ? `${choice.option} ${choice.path}` : choice.path;
  if (!existsSync(choice.path)) {
    return `needs Chromium: none at ${named}; install chromium (apt-get install chromium), or give run --chromium PATH (or set CHROMIUM_PATH) to a Chromium or Chrome binary`;
  }
  try {
    return await chromium.launch({ executablePath: choice.path, args: CHROMIUM_LAUNCH_ARGS });
  } catch (error) {
    return `needs Chromium: ${named} did not start (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/** Other origins a check serves itself (the CSP checks), by origin: an answer per path. */
export type ExtraOrigins = Readonly<Record<string, (path: string) => OriginAnswer | Promise<OriginAnswer>>>;
type OriginAnswer = { status: number; headers: Record<string, string>; body: string | Buffer };

/**
 * One browser per suite file, shared by its checks, and the origin its pages load the deployment from. A live
 * deployment is loaded directly; the embedded reference (a fetch handler) through a loopback server that hands every
 * request to the check's current target. One browser context is shared by the checks that need no fake clock and
 * no extra origins, so the SDK and host scripts come from its HTTP cache after the first page.
 */
export class BrowserHarness {
  private server: Server | undefined;
  private shared: BrowserContext | undefined;
  private current: Target | undefined;
  /** Where pages load the deployment from. */
  origin = '';

  private constructor(
    readonly browser: Browser,
    private readonly live: boolean,
  ) {}

  /** The harness, or why the browser checks cannot run. */
  static async start(target: Target, choice: ChromiumChoice = { path: CHROMIUM_PATH }): Promise<BrowserHarness | string> {
    const browser = await launchChromium(choice);
    if (typeof browser === 'string') return browser;
    const harness = new BrowserHarness(browser, target.kind === 'live');
    harness.current = target;
    if (harness.live) harness.origin = new URL(target.environment.platformOrigin).origin;
    else await harness.listen();
    return harness;
  }

  /** The target the loopback server forwards to from now on (each check may build its own). */
  use(target: Target): void {
    this.current = target;
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const target = this.current!;
        const body = chunks.length ? new Uint8Array(Buffer.concat(chunks)) : null;
        const headers = Object.entries(req.headers).flatMap(([n, v]) => (v === undefined ? [] : [[n, Array.isArray(v) ? v.join(', ') : v] as const]));
        target
          .send({ method: req.method ?? 'GET', url: `${target.environment.platformOrigin}${req.url ?? '/'}`, headers, body })
          .then((answer) => {
            const out = Object.entries(answer.headers).filter(([n]) => n !== 'content-length' && n !== 'transfer-encoding' && n !== 'connection');
            res.writeHead(answer.status, Object.fromEntries(out));
            res.end(Buffer.from(answer.body));
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The shared context (no fake clock, no extra origins). */
  async context(): Promise<BrowserContext> {
    this.shared ??= await this.browser.newContext();
    return this.shared;
  }

  /** A context of its own: with `clock`, its timers are Playwright's, advanced by the check; `extra` origins are served, others refused. */
  async ownContext(options: { clock?: boolean; extra?: ExtraOrigins } = {}): Promise<BrowserContext> {
    const context = await this.browser.newContext();
    if (options.clock) {
      await context.clock.install();
      // Paused: page time moves only when the check steps it, so the host's log measures the SDK's waits exactly.
      await context.clock.pauseAt(Date.now() + 60_000);
    }
    if (options.extra) {
      for (const [origin, serve] of Object.entries(options.extra)) {
        await context.route(`${origin}/**`, async (route) => route.fulfill(await serve(new URL(route.request().url()).pathname)));
      }
    }
    return context;
  }

  async close(): Promise<void> {
    await this.browser.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
