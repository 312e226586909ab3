import type { RunOptions } from './run.js';

/** A word a POSIX shell reads as itself: quoted unless it is plainly safe. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The options of a run as command-line words after `agent-platform-conformance run`, so that a report can say how to
 * run it again (its selection and seed are added by the report: the whole run's, or one check's). Secrets never
 * reach a report: the operator's key and the agent client's secret are written as shell variables.
 */
export function rerunWords(options: RunOptions): string[] {
  const words: string[] = [];
  const add = (option: string, value?: string | number) => words.push(`--${option}`, ...(value === undefined ? [] : [shellWord(String(value))]));
  const live = options.live;
  if (live) {
    add('base-url', live.baseUrl);
    if (live.alsoBaseUrl) add('also-base-url', live.alsoBaseUrl);
    if (live.fixtureUrl) add('fixture-url', live.fixtureUrl);
    if (live.fixturePort !== undefined) add('fixture-port', live.fixturePort);
    if (live.clientAddressHeader) add('client-address-header', live.clientAddressHeader);
    if (live.spendCapMinorUnits !== undefined) {
      add('allow-spend');
      add('spend-cap', live.spendCapMinorUnits);
    }
    if (live.allowWaits) add('allow-waits');
    if (live.ownerKey !== undefined) words.push('--owner-key', '"$OWNER_KEY"');
    if (live.controlUrl) add('control-url', live.controlUrl);
    if (live.widgetHostUrl) add('widget-host-url', live.widgetHostUrl);
  }
  const names = options.deployment;
  if (names?.serviceName) add('service-name', names.serviceName);
  if (names?.problemsUrl) add('problems-url', names.problemsUrl);
  if (names?.paymentProblemsUrl) add('payment-problems-url', names.paymentProblemsUrl);
  if (names?.termsUrl) add('terms-url', names.termsUrl);
  if (options.agentUrl) add('agent-url', options.agentUrl);
  if (options.agentClient) words.push('--agent-client', `${shellWord(options.agentClient.id)}:"$AGENT_CLIENT_SECRET"`);
  if (options.timeoutMs !== undefined) add('timeout', options.timeoutMs);
  if (options.maxBodyBytes !== undefined) add('max-body', options.maxBodyBytes);
  if (options.deadlineSeconds !== undefined) add('deadline', options.deadlineSeconds);
  if (options.expectedFailures) add('expected-failures', options.expectedFailures.file);
  if (options.chromiumPath !== undefined) add('chromium', options.chromiumPath);
  for (const word of options.skip ?? []) add('skip', word);
  if (options.selfTest) add('self-test');
  if (options.client?.selfTest) add('client-self-test');
  else if (options.client) add('client-command', options.client.command);
  if (options.client?.allowInsecureFixtures) add('allow-insecure-fixtures');
  return words;
}
