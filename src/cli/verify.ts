import { loadCaseFile } from '../cases/load-case.js';
import type { CaseResult, StepResult } from '../cases/run-case.js';
import type { SignedRequestCase } from '../cases/types.js';
import type { Command, CommandArgs } from './command.js';
import { CaseInputError } from '../cases/case-input-error.js';
import { JsonSyntaxError } from '../schema/parse-json.js';
import { errorReport, exitCodeOf, HarnessError, InputError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { flag } from './option-values.js';
import { readInputFile } from './read-input.js';
import { shippedFilePath } from './package-root.js';

const NAME = 'verify';
const VECTORS = shippedFilePath('vectors/signed-requests.json', process.cwd());

export const verifyCommand: Command = {
  name: NAME,
  summary: 'run the steps of a signed-request case through the reference verifier',
  usage: 'CASE.json [--json]',
  description: [
    'Runs each step of a signed-request case (docs/contracts.md section 2), or of every case of a vectors',
    'file such as vectors/signed-requests.json, in order against one reference verifier state, and',
    "compares each verdict with the step's expect. Exits 1 when any expect member differs.",
    'With --json prints { "steps": [...] } for a case, { "cases": [{ "id", "steps" }] } for a vectors file,',
    'and for a case file that cannot be used { "error": { "message", "problems": [{ "pointer", "message" }] } } (exit 2).',
  ].join('\n'),
  options: {
    json: { type: 'boolean', help: 'print one JSON document' },
  },
  positionals: { names: ['CASE.json'], min: 1, max: 1 },
  // vectors/signed-requests.json ships in the package: named as it lies from where the command runs, the example runs as
  // written in a checkout, in a project that installed the package and from an npx cache.
  examples: [`agent-platform-conformance verify ${VECTORS}`, `agent-platform-conformance verify ${VECTORS} --json`],
  available: true,
  run: runVerify,
};

/**
 * With --json, a case file that cannot be used is one JSON document too (stdout stays parseable), besides the
 * message on stderr: { "error": { "message", "problems": [{ "pointer", "message" }] } }, exit 2.
 */
function inputErrorJson(error: unknown): string | undefined {
  if (error instanceof CaseInputError)
    return JSON.stringify({ error: { message: error.message, problems: error.problems.map((p) => ({ pointer: p.pointer, message: p.message })) } }, null, 2);
  if (error instanceof JsonSyntaxError)
    return JSON.stringify(
      { error: { message: error.message, problems: [{ pointer: '', message: `line ${error.line}, column ${error.column}: ${error.problem}` }] } },
      null,
      2,
    );
  if (error instanceof InputError) return JSON.stringify({ error: { message: error.message, problems: [] } }, null, 2);
  return undefined;
}

async function runVerify(args: CommandArgs, io: CliIo): Promise<number> {
  const path = args.positionals[0]!;
  let file: ReturnType<typeof loadCaseFile>;
  try {
    file = loadCaseFile((await readInputFile(io, path, 'case file')).toString('utf8'), path);
  } catch (error) {
    const json = flag(args, 'json') ? inputErrorJson(error) : undefined;
    if (json === undefined) throw error;
    io.stdout.write(`${json}\n`);
    io.stderr.write(errorReport(error));
    return exitCodeOf(error);
  }
  const results: CaseResult[] = [];
  for (const c of file.cases) results.push(await run(c));

  if (flag(args, 'json')) {
    const document =
      file.layout === 'case' ? { steps: results[0]!.steps.map(stepJson) } : { cases: results.map((r) => ({ id: r.id, steps: r.steps.map(stepJson) })) };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    io.stdout.write(humanReport(file.cases, results));
  }
  const differs = results.some((r) => r.steps.some((s) => s.matches_expect === false));
  return differs ? EXIT.expectationFailed : EXIT.ok;
}

async function run(c: SignedRequestCase): Promise<CaseResult> {
  try {
    const { runCase } = await import('../cases/run-case.js');
    return await runCase(c);
  } catch (error) {
    throw new HarnessError(`case "${c.id}" could not be run: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The members of docs/contracts.md first, in its order; then what helps a person read a difference. */
function stepJson(s: StepResult) {
  return {
    ok: s.ok,
    status: s.status,
    error_code: s.error_code,
    agent_url: s.agent_url,
    headers: s.headers,
    matches_expect: s.matches_expect,
    description: s.description,
    mismatches: s.mismatches,
    ...(s.reading ? { reading: s.reading } : {}),
  };
}

function humanReport(cases: readonly SignedRequestCase[], results: readonly CaseResult[]): string {
  const lines: string[] = [];
  results.forEach((result, n) => {
    lines.push(`case ${result.id}: ${cases[n]!.description}`);
    result.steps.forEach((s, i) => {
      lines.push(`  step ${i + 1}: ${verdictWords(s)}${expectWords(s.matches_expect)}`);
      for (const m of s.mismatches) lines.push(`    ${m}`);
      if (s.reading) lines.push(`    note: ${s.reading}`);
    });
  });
  const steps = results.flatMap((r) => r.steps);
  const differing = steps.filter((s) => s.matches_expect === false).length;
  const compared = steps.filter((s) => s.matches_expect !== null).length;
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    `${count(results.length, 'case')}, ${count(steps.length, 'step')}: ` +
      (differing > 0 ? `${differing} of ${compared} compared ${differing === 1 ? 'differs' : 'differ'} from expect` : `${compared} compared, all match expect`),
  );
  return `${lines.join('\n')}\n`;
}

function verdictWords(s: StepResult): string {
  if (s.ok) return s.agent_url ? `accepted, agent ${s.agent_url}` : 'accepted';
  return `refused ${s.status} ${s.error_code ?? ''}${s.description ? ` — ${s.description}` : ''}`;
}

function expectWords(matches: boolean | null): string {
  if (matches === null) return ' [no expect]';
  return matches ? ' [matches expect]' : ' [DIFFERS from expect]';
}
