import type { IndexedCheck } from '../harness/check-index.js';
import { needLabel } from '../harness/not-run-needs.js';
import type { Command, CommandArgs } from './command.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { flag, stringOptions } from './option-values.js';

const NAME = 'list';

/** One check as `list --json` prints it. */
interface ListedCheck {
  readonly id: string;
  /** The spec section of its suite file (`suites/7.3-signed-requests.test.ts`: 7.3). */
  readonly section: string;
  readonly file: string;
  readonly requirements: readonly string[];
  readonly level: string;
  readonly title: string;
  /** What it needs to run live beyond --base-url (src/harness/not-run-needs.ts ids: agent-url, allow-spend, in-process...); empty: nothing. */
  readonly needs: readonly string[];
}

function listed(c: IndexedCheck): ListedCheck {
  const section = /^suites\/(\d+(?:\.\d+)*)-/.exec(c.file)?.[1] ?? '';
  return { id: c.id, section, file: c.file, requirements: c.requirements, level: c.level, title: c.title, needs: c.needs ?? [] };
}

/** The checks grouped by suite file, one line each: id, level, requirement ids. */
function text(checks: readonly ListedCheck[]): string {
  const idWidth = Math.max(0, ...checks.map((c) => c.id.length));
  const lines: string[] = [];
  let file: string | undefined;
  for (const c of checks) {
    if (c.file !== file) {
      file = c.file;
      const count = checks.filter((k) => k.file === file).length;
      lines.push(`${lines.length ? '\n' : ''}${c.section} ${file} (${count} check${count === 1 ? '' : 's'})`);
    }
    const needs = c.needs.length ? `  (needs ${c.needs.map(needLabel).join(', ')})` : '';
    lines.push(`  ${c.id.padEnd(idWidth)}  ${c.level.padEnd(6)}  ${c.requirements.join(' ')}${needs}`);
  }
  const files = new Set(checks.map((c) => c.file)).size;
  const needing = checks.filter((c) => c.needs.length).length;
  lines.push(
    '',
    `${checks.length} check${checks.length === 1 ? '' : 's'} in ${files} suite file${files === 1 ? '' : 's'}; ${needing} need more than --base-url to run live (--json adds each check's title)`,
    '',
  );
  return lines.join('\n');
}

async function runList(args: CommandArgs, io: CliIo): Promise<number> {
  const only = stringOptions(args, 'only');
  const skip = stringOptions(args, 'skip');
  // The planner is run's own, so list shows exactly what run would run; it loads no suite and no vitest.
  const { selectedChecks } = await import('../harness/run.js');
  const selected = selectedChecks(only, skip);
  if ('problem' in selected) throw new UsageError(selected.problem, NAME);
  const checks = selected.checks.map(listed);
  io.stdout.write(flag(args, 'json') ? `${JSON.stringify({ checks }, null, 2)}\n` : text(checks));
  return EXIT.ok;
}

export const listCommand: Command = {
  name: NAME,
  summary: 'list the checks a run would run: id, section, requirement ids, level, what each needs to run live',
  usage: '[--only ID-or-SECTION]... [--skip ID-or-SECTION]... [--json]',
  description: [
    'Prints every check of the suites (suites/checks.json), grouped by suite file: its id, its section, the',
    'requirement ids it judges and its level (MUST fails a run, SHOULD warns). --only and --skip select as they do',
    'for run, so the list is what that run would run. With --json: { "checks": [{ "id", "section", "file",',
    '"requirements", "level", "title", "needs" }] }. A check\'s needs say what a live run needs beyond --base-url to',
    'run it (--agent-url, --allow-spend, the in-process run...; "needs" holds their ids): a run without them reports',
    'it not-run with the reason.',
  ].join('\n'),
  options: {
    only: { type: 'string', multiple: true, value: 'ID-or-SECTION', help: 'list only the checks of this section, requirement or check' },
    skip: { type: 'string', multiple: true, value: 'ID-or-SECTION', help: 'leave out the checks of this section, requirement or check' },
    json: { type: 'boolean', help: 'print { "checks": [...] } instead of the text list' },
  },
  positionals: { names: [], min: 0, max: 0 },
  examples: ['agent-platform-conformance list', 'agent-platform-conformance list --only 2.4 --json', 'agent-platform-conformance list --skip 4.6 --skip 7.1'],
  available: true,
  run: runList,
};
