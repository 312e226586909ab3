import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_CONTROL_PATH } from '../src/contract/test-control.js';
import { NEEDS_FILE } from '../src/harness/collect-checks.js';
import { DECLARABLE_NEEDS, type DeclaredNeed } from '../src/harness/not-run-needs.js';
import type { RunReport } from '../src/harness/results.js';
import { serveReference } from '../src/reference/index.js';
import { REFERENCE_ONLY_ROUTES } from '../src/spec/publish.js';

/**
 * `tsx scripts/derive-needs.ts`: what each check needs to run live beyond --base-url, found by running the suites
 * against `serve` (every option on): once with every option, once with --base-url alone (against a deployment with no
 * agent in its directory), and once leaving out each option in turn but --service-name (and once without Chromium). A
 * check needs every need any of those runs reported it not run for. Writes suites/needs.json, which `npm run vectors`
 * folds into suites/checks.json and `list` prints. About 25 minutes on two cores; run it after adding a check that a
 * live run may not be able to run, with `--only ID-or-SECTION` to run those alone (tests/e2e/declared-needs.test.ts
 * fails when a live run reports a need a check does not have).
 */
const HEADER = 'x-forwarded-for';
const OWNER_KEY = 'operator-key-derive-needs';
const CLIENT = { id: 'suite', secret: 'client-secret-derive-needs' };

const served = await serveReference({
  port: 0,
  allowInsecureFixtures: true,
  clientAddressHeader: HEADER,
  testControl: true,
  agent: { name: 'reference', clients: { [CLIENT.id]: CLIENT.secret } },
  platform: { serviceName: 'Acme', ownerKeys: [OWNER_KEY] },
});
/** As a deployment offers itself to a run with no option: no agent in its directory, no test control, no operator key. */
const plain = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: HEADER });
const options: Record<string, string[]> = {
  'also-base-url': ['--also-base-url', served.url],
  'agent-url': ['--agent-url', served.agent!.urls.agentUrl],
  'agent-client': ['--agent-client', `${CLIENT.id}:${CLIENT.secret}`],
  'owner-key': ['--owner-key', OWNER_KEY],
  'control-url': ['--control-url', `${served.url}${TEST_CONTROL_PATH}`],
  'widget-host-url': ['--widget-host-url', `${served.url}${REFERENCE_ONLY_ROUTES.widgetHost}`],
  'service-name': ['--service-name', 'Acme'],
  'allow-spend': ['--allow-spend', '--spend-cap', '1000000'],
  'client-address-header': ['--client-address-header', HEADER],
};
const every = Object.values(options).flat();
/** --agent-client names a client of the agent --agent-url names: it leaves with it. */
const without = (left: string) =>
  Object.entries(options)
    .filter(([name]) => name !== left && !(left === 'agent-url' && name === 'agent-client'))
    .flatMap(([, args]) => args);
const runs: ReadonlyArray<{ name: string; args: string[]; env?: Record<string, string>; baseUrl?: string }> = [
  { name: 'every option', args: every },
  { name: '--base-url alone', args: [], baseUrl: plain.url },
  // --service-name is the deployment's own name, not something a run may go without: it is never left out.
  ...Object.keys(options)
    .filter((name) => name !== 'service-name')
    .map((left) => ({ name: `without --${left}`, args: without(left) })),
  { name: 'without Chromium', args: every, env: { CHROMIUM_PATH: '/nonexistent/chromium' } },
];

/** `--only ID-or-SECTION`...: runs that selection alone and replaces only its checks' entries in suites/needs.json. */
const only = process.argv.slice(2).flatMap((arg, i, all) => (all[i - 1] === '--only' ? ['--only', arg] : []));
const needs = new Map<string, Set<DeclaredNeed>>();
const selected = new Set<string>();
const declarable: ReadonlySet<string> = new Set(DECLARABLE_NEEDS);
try {
  for (const run of runs) {
    const out = mkdtempSync(join(tmpdir(), 'apc-derive-needs-'));
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/entry.ts', 'run', '--base-url', run.baseUrl ?? served.url, ...run.args, ...only, '--out', out],
        {
          stdio: 'ignore',
          env: { ...process.env, ...run.env },
        },
      );
      child.on('close', resolve);
    });
    const [runDir] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runDir!, 'report.json'), 'utf8')) as RunReport;
    rmSync(out, { recursive: true, force: true });
    const failed = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => r.id);
    if (failed.length) throw new Error(`${run.name}: ${failed.length} check(s) failed against serve (${failed.join(', ')}); fix them first`);
    let notRun = 0;
    for (const r of report.results) {
      selected.add(r.id);
      if (r.verdict !== 'not-run') continue;
      notRun++;
      if (!r.needs || !declarable.has(r.needs)) {
        console.warn(`${run.name}: ${r.id} is not run for no need a check can declare: ${r.message}`);
        continue;
      }
      needs.set(r.id, (needs.get(r.id) ?? new Set()).add(r.needs as DeclaredNeed));
    }
    console.log(`${run.name}: exit ${code}, ${notRun} of ${report.results.length} not run (${Math.round((Date.now() - started) / 1000)} s)`);
  }
} finally {
  await Promise.all([served.close(), plain.close()]);
}
const kept = only.length
  ? Object.entries(JSON.parse(readFileSync(NEEDS_FILE, 'utf8')) as Record<string, DeclaredNeed[]>).filter(([id]) => !selected.has(id))
  : [];
const ordered = [...kept, ...[...needs.entries()].map(([id, set]) => [id, DECLARABLE_NEEDS.filter((n) => set.has(n))] as const)].sort(([a], [b]) =>
  a.localeCompare(b),
);
writeFileSync(NEEDS_FILE, `${JSON.stringify(Object.fromEntries(ordered), null, 2)}\n`);
console.log(`${NEEDS_FILE}: ${ordered.length} checks need more than --base-url to run live`);
