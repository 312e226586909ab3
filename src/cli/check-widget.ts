import { resolve } from 'node:path';
import { BundleReadError, checkBundle, readBundleFolder } from '../widgets/bundle/index.js';
import type { BundleReport } from '../widgets/bundle/index.js';
import type { Command, CommandArgs } from './command.js';
import { InputError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { flag } from './option-values.js';

const NAME = 'check-widget';

export const checkWidgetCommand: Command = {
  name: NAME,
  summary: 'check a widget bundle',
  usage: 'FOLDER [--json]',
  description: [
    'Checks a widget bundle (spec 2.5, 4.4-4.6): widget.json against the manifest schema, every CSP list',
    'entry as a bare domain, the HTML entry and its rel="widget-manifest" link, each tool\'s source file',
    '(at most 64 KB) and the icon and theme files. FOLDER may also be a single .html file (or a folder holding',
    'only one), judged as the publish wraps it (2.5): the entry of a one-child folder beside the widget.json the',
    'platform writes, so it needs neither a manifest nor a link of its own. Lists every problem with its code and the JSON pointer (into',
    'widget.json) or file path at fault, and prints the CSP policy the bundle would render with.',
    'Exits 0 when the bundle is valid, 1 when it is not.',
    'JSON: { "valid", "errors": [{ "code", "path", "message" }], "csp": { "policy", "fallback" } }.',
  ].join('\n'),
  options: { json: { type: 'boolean', help: 'print one JSON document' } },
  positionals: { names: ['FOLDER'], min: 1, max: 1 },
  examples: ['agent-platform-conformance check-widget ./my-widget', 'agent-platform-conformance check-widget ./my-widget --json'],
  available: true,
  run: runCheckWidget,
};

async function runCheckWidget(args: CommandArgs, io: CliIo): Promise<number> {
  const folder = args.positionals[0]!;
  let files: ReadonlyMap<string, Uint8Array>;
  try {
    files = await readBundleFolder(resolve(io.cwd, folder));
  } catch (error) {
    if (error instanceof BundleReadError) throw new InputError(error.message.replace(resolve(io.cwd, folder), folder));
    throw error;
  }
  const report = checkBundle(files);
  if (flag(args, 'json')) {
    const document = { valid: report.valid, errors: report.errors.map(({ code, path, message }) => ({ code, path, message })), csp: report.csp };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    io.stdout.write(humanReport(folder, report));
  }
  return report.valid ? EXIT.ok : EXIT.expectationFailed;
}

function humanReport(folder: string, report: BundleReport): string {
  const n = report.errors.length;
  const wrapped =
    report.wrappedFrom === undefined ? '' : ` (a single HTML file, judged as the publish wraps it: ${report.entry} beside the widget.json the platform writes)`;
  const lines = [`widget bundle ${folder}${wrapped}: ${report.valid ? 'valid' : `invalid, ${n} problem${n === 1 ? '' : 's'}`}`];
  for (const e of report.errors) lines.push(`  ${e.code} at ${e.path}: ${e.message}`);
  lines.push(report.csp.fallback ? 'CSP policy (restrictive default: a list entry was rejected or could not be read):' : 'CSP policy:');
  lines.push(`  ${report.csp.policy}`);
  return `${lines.join('\n')}\n`;
}
