import type { AgentCheckReport } from '../agent-check/index.js';
import { rootCertificates } from 'node:tls';
import { PRIVATE_CA_HINT } from '../fetch/error-outcome.js';
import { WELL_KNOWN } from '../spec/wire.js';
import type { Command, CommandArgs } from './command.js';
import { InputError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { flag, stringOption } from './option-values.js';
import { readInputFile } from './read-input.js';

const NAME = 'check-agent';

const INSECURE_AGENT_WARNING =
  'warning: --allow-insecure is on: plain-http documents on loopback are accepted; platforms never accept them, so this is for local testing only';

const DOCUMENT_LABELS = { card: 'agent card', key_set: 'key set', key_directory: 'key directory' } as const;

function agentUrlArgument(args: CommandArgs): string {
  const value = args.positionals[0];
  if (value === undefined || value === '')
    throw new UsageError('check-agent needs AGENT_URL, the agent URL its card and key set live under (e.g. https://agents.example/a/alice)', NAME);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`AGENT_URL must be an absolute URL such as https://agents.example/a/alice, not "${value}"`, NAME);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`AGENT_URL must be an https URL, not ${url.protocol}`, NAME);
  if (url.search !== '' || url.hash !== '') throw new UsageError('AGENT_URL must not carry a query or fragment', NAME);
  const agentUrl = url.href.replace(/\/+$/, '');
  for (const suffix of [WELL_KNOWN.jwks, WELL_KNOWN.agentCard]) {
    if (agentUrl.endsWith(suffix))
      throw new UsageError(`AGENT_URL is the agent URL itself; leave off ${suffix} (try ${agentUrl.slice(0, -suffix.length)})`, NAME);
  }
  return agentUrl;
}

function humanReport(report: AgentCheckReport): string {
  const lines = [`agent ${report.agent_url}`];
  for (const d of report.documents)
    lines.push(`  ${d.ok ? 'ok  ' : 'FAIL'} ${DOCUMENT_LABELS[d.name]}: ${d.url}${d.status === null ? ' (not fetched: see below)' : ` (${d.status})`}`);
  if (report.problems.length) lines.push('');
  for (const p of report.problems) lines.push(`${p.level === 'error' ? 'problem' : 'warning'} [${p.code}, ${p.requirement}] ${p.url}`, `  ${p.message}`);
  const errors = report.problems.filter((p) => p.level === 'error').length;
  const warnings = report.problems.length - errors;
  lines.push(
    '',
    report.unreachable
      ? 'UNREACHABLE: no document answered; check the URL and that the host is up'
      : report.ok
        ? `OK: the card, key set and key directory meet spec 2.4${warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}`
        : `NOT CONFORMANT: ${errors} problem${errors === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`,
    '',
  );
  return lines.join('\n');
}

/** The shared fetch messages name serve's --allow-insecure-fixtures and Node's variable; this command has options for both. */
function ownOptions(message: string): string {
  return message
    .replaceAll('--allow-insecure-fixtures', '--allow-insecure')
    .replace(PRIVATE_CA_HINT, 'A certificate from a private CA is trusted with --ca FILE (the CA certificate in PEM).');
}

/** --ca FILE: one or more PEM certificates to trust beside the system's. */
async function readCaFile(io: CliIo, path: string): Promise<string> {
  const text = (await readInputFile(io, path, '--ca file', 1024 * 1024)).toString('utf8');
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new InputError(`--ca file "${path}" holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

async function runCheckAgent(args: CommandArgs, io: CliIo): Promise<number> {
  const agentUrl = agentUrlArgument(args);
  const insecure = flag(args, 'allow-insecure');
  if (insecure) io.stderr.write(`${INSECURE_AGENT_WARNING}\n`);
  const caFile = stringOption(args, 'ca');
  // The CA adds to the trusted ones (Node's own roots stay), as NODE_EXTRA_CA_CERTS does.
  const ca = caFile === undefined ? undefined : [...rootCertificates, await readCaFile(io, caFile)];
  // The checker and its HTTP client load only when checking, so help and version answer at once.
  const { createUndiciFetcher } = await import('../fetch/undici-fetcher.js');
  const { checkAgent } = await import('../agent-check/index.js');
  const fetcher = createUndiciFetcher({ allowInsecureLoopback: insecure, ...(ca ? { tls: { ca: ca.join('\n') } } : {}) });
  let report: AgentCheckReport;
  try {
    const checked = await checkAgent(agentUrl, fetcher);
    // The shared fetch rules name serve's flag; this command's own is --allow-insecure.
    report = { ...checked, problems: checked.problems.map((p) => ({ ...p, message: ownOptions(p.message) })) };
  } finally {
    await fetcher.close();
  }
  if (flag(args, 'json')) {
    const { unreachable: _unreachable, ...document } = report;
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else io.stdout.write(humanReport(report));
  if (report.unreachable) return EXIT.harness;
  return report.ok ? EXIT.ok : EXIT.expectationFailed;
}

export const checkAgentCommand: Command = {
  name: NAME,
  summary: "fetch and check an agent's key set, card and key directory under the fetch rules",
  usage: 'AGENT_URL [--json] [--allow-insecure] [--ca FILE]',
  description: [
    "Fetches AGENT_URL/.well-known/agent.json, AGENT_URL/.well-known/jwks.json and the key directory at the URL's",
    'origin (/.well-known/http-message-signatures-directory) under the fetch rules of spec 5.2 (https, 200 with no',
    'redirect, at most 64 KiB, within 5 s, public addresses only) and checks them against 2.4: the card names itself,',
    'the key set holds at most 16 Ed25519 keys (OKP, Ed25519, use sig) and no RFC 9421 test key, the directory has',
    "its media type and lists the agent's keys. Every problem says what was found, what the spec wants and how to fix it.",
    'A directory answering 404 is a warning (right only for a server with no signing identity, 4.3).',
    'Exit 0 conformant, 1 a problem found (documents at an address the fetch rules refuse, such as loopback, are one),',
    '2 a bad AGENT_URL, 3 nothing answered (DNS, connection, TLS or timeout failed for every document).',
    'JSON: { "agent_url", "ok", "documents": [{ "name", "url", "status", "ok" }],',
    '"problems": [{ "code", "requirement", "url", "message", "level" }] }.',
  ].join('\n'),
  options: {
    json: { type: 'boolean', help: 'print one JSON document' },
    'allow-insecure': { type: 'boolean', help: 'accept plain http documents on loopback (local testing only)' },
    ca: { type: 'string', value: 'FILE', help: "trust the CA certificate(s) in this PEM file too, beside the system's (a private CA)" },
  },
  positionals: { names: ['AGENT_URL'], min: 0, max: 1 },
  examples: [
    'agent-platform-conformance check-agent https://agents.example/a/alice',
    'agent-platform-conformance check-agent http://127.0.0.1:8787/agents/reference --allow-insecure --json',
  ],
  available: true,
  run: runCheckAgent,
};
