import type { InputProblem } from './describe-schema-errors.js';

/** How many problems a message lists; the rest are counted. */
const MAX_LISTED_PROBLEMS = 5;

/** A case or vectors file that cannot be used; the message names each member at fault. */
export class CaseInputError extends Error {
  override readonly name = 'CaseInputError';
  constructor(
    readonly source: string,
    readonly problems: readonly InputProblem[],
  ) {
    super(formatProblems(source, problems));
  }
}

/** "(top level)" for the root, else the JSON pointer without its leading slash: steps/0/request/headers/2. */
function displayPointer(pointer: string): string {
  return pointer === '' ? '(top level)' : pointer.replace(/^\//, '');
}

function formatProblems(source: string, problems: readonly InputProblem[]): string {
  const line = (p: InputProblem) => `${displayPointer(p.pointer)}: ${p.message}`;
  if (problems.length === 1) return `${source}: ${line(problems[0]!)}`;
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${line(p)}`);
  const rest = problems.length - listed.length;
  return [`${source}: ${problems.length} problems:`, ...listed, ...(rest > 0 ? [`  and ${rest} more`] : [])].join('\n');
}
