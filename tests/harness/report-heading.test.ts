import { describe, expect, test } from 'vitest';
import { reportHtml } from '../../src/harness/report-html.js';
import { validateReport } from '../../src/harness/report-schema.js';
import { rerunWords } from '../../src/harness/rerun.js';
import { summaryMarkdown } from '../../src/harness/write-reports.js';
import { check, report } from './sample-reports.js';

/**
 * Issue 14 part 5: the target heads every report, and the Repeat command carries every option the run was given
 * (secrets as shell variables); a run from one address records its pacing beside the throttle's floor.
 */
const options = {
  live: {
    baseUrl: 'https://platform.example',
    fixtureUrl: 'https://fixtures.example:8443',
    fixturePort: 8443,
    spendCapMinorUnits: 1500,
    allowWaits: true,
    ownerKey: 'op-secret-1',
    controlUrl: 'http://127.0.0.1:8787/_reference/test-control',
    widgetHostUrl: 'https://platform.example/widgets/{postId}/host',
  },
  agentUrl: 'https://agents.example/a/alice',
  agentClient: { id: 'suite', secret: 'client-secret-1' },
  deployment: { serviceName: 'Acme', termsUrl: 'https://platform.example/terms?v=2' },
  timeoutMs: 5000,
  chromiumPath: '/opt/chrome/chrome',
};

const live = report([check('signed.valid-post', ['AUTH-SIGNATURE-VALID'], 'fail', { message: 'refused' })], {
  target: {
    kind: 'live',
    description: 'platform https://platform.example (fixture host https://fixtures.example:8443); agent https://agents.example/a/alice',
    platformUrl: 'https://platform.example',
    agentUrl: 'https://agents.example/a/alice',
    fixtureUrl: 'https://fixtures.example:8443',
    serviceName: 'Acme',
  },
  rerun: rerunWords(options),
  selection: ['7.3'],
  seed: 42,
  pacing: { failingRequests: 87, wallTimeMs: 190_000, floorMs: 180_000, throttled: true, waitedMs: 61_000 },
});

const REPEAT =
  'npx agent-platform-conformance run --base-url https://platform.example --fixture-url https://fixtures.example:8443 --fixture-port 8443 --allow-spend --spend-cap 1500 --allow-waits --owner-key "$OWNER_KEY" --control-url http://127.0.0.1:8787/_reference/test-control --widget-host-url \'https://platform.example/widgets/{postId}/host\' --service-name Acme --terms-url \'https://platform.example/terms?v=2\' --agent-url https://agents.example/a/alice --agent-client suite:"$AGENT_CLIENT_SECRET" --timeout 5000 --chromium /opt/chrome/chrome --only 7.3 --seed 42';

describe('the report of a live run', () => {
  test('validates against the report schema', () => {
    expect(validateReport(live).errors).toEqual([]);
  });

  test('summary.md is headed by the platform, the agent, the fixture host and the service name, and repeats with every option', () => {
    const md = summaryMarkdown(live);
    const head = md.slice(0, md.indexOf('| pass |'));
    expect(head).toContain(
      '- Platform: `https://platform.example`\n- Agent: `https://agents.example/a/alice`\n- Fixture host: `https://fixtures.example:8443`\n- Service name: `Acme`',
    );
    expect(head).toContain(`Repeat: \`${REPEAT}\``);
    expect(head).toContain('Pacing: 87 failing signed requests from one address in 3.2 min; the floor at 29 a minute is 3.0 min; the deployment throttled');
  });

  test('report.html names the same, field by field, and never the secrets', () => {
    const html = reportHtml(live);
    for (const [field, value] of [
      ['platform-url', 'https://platform.example'],
      ['agent-url', 'https://agents.example/a/alice'],
      ['fixture-url', 'https://fixtures.example:8443'],
      ['service-name', 'Acme'],
    ])
      expect(html).toContain(`<dd data-field="${field}"><code>${value}</code></dd>`);
    expect(html).toContain('data-field="pacing">87 failing signed requests');
    expect(html).toContain('--base-url https://platform.example');
    expect(html).toContain('--service-name Acme');
    expect(html).not.toContain('op-secret-1');
    expect(html).not.toContain('client-secret-1');
  });

  test('an in-process run has no live heading and repeats with its selection and seed only', () => {
    const md = summaryMarkdown(report([check('signed.valid-post', ['AUTH-SIGNATURE-VALID'], 'pass')], { rerun: rerunWords({}) }));
    expect(md).not.toContain('- Platform:');
    expect(md).toContain('Repeat: `npx agent-platform-conformance run --seed 1`');
  });
});
