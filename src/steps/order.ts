/**
 * Tables of steps that name the facts they need and give: the verifier's checks (src/verifier/order.ts) and the
 * purchase machine's guards (src/purchase/machine/guards/order.ts). A step's `run` takes exactly the facts it needs,
 * so the compiler proves a table in order (`InOrder`): moving a step above what it needs fails to compile. An order is
 * also a value a deployment may configure (the self-test's variants move steps, its deep mutants wrap or drop them),
 * so the cores check a configured order the same way once (`orderProblem`) and will not run one whose step needs a
 * fact no earlier step gives.
 */
export interface Step {
  readonly name: string;
  readonly needs: readonly string[];
  readonly gives: readonly string[];
}

/**
 * `true` when every step of the tuple `T` needs only facts earlier ones give, and what reads the table's result finds
 * the facts `Read`; otherwise the first step out of place and what it lacks, or the facts never given.
 */
export type InOrder<T extends readonly unknown[], Read extends string = never, Given extends string = never> = T extends readonly [infer First, ...infer Rest]
  ? First extends { readonly name: string; readonly needs: readonly (infer N)[]; readonly gives: readonly (infer G extends string)[] }
    ? [N] extends [Given]
      ? InOrder<Rest, Read, Given | G>
      : { readonly misplaced: First['name']; readonly needsFirst: Exclude<N, Given> }
    : never
  : [Read] extends [Given]
    ? true
    : { readonly neverGiven: Exclude<Read, Given> };

/** What reads the table's result, and the facts it reads (the verifier's acceptance). */
export interface TableReader {
  readonly name: string;
  readonly needs: readonly string[];
}

/**
 * Why `steps` cannot run in this order, or null: each step's needs given by an earlier one, each fact given once, and
 * every fact `reader` needs given. `noun` names a step in the answer (check, guard).
 */
export function orderProblem(steps: readonly Step[], noun: string, reader?: TableReader): string | null {
  const given = new Map<string, string>();
  for (const step of steps) {
    const missing = step.needs.filter((fact) => !given.has(fact));
    if (missing.length) return `the ${noun} ${step.name} needs ${missing.join(', ')}, which no ${noun} before it gives`;
    for (const fact of step.gives) {
      const by = given.get(fact);
      if (by !== undefined) return `the ${noun}s ${by} and ${step.name} both give ${fact}`;
      given.set(fact, step.name);
    }
  }
  const missing = reader?.needs.filter((fact) => !given.has(fact)) ?? [];
  return missing.length ? `no ${noun} gives ${missing.join(', ')}, which ${reader?.name} reports` : null;
}
