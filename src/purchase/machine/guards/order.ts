/**
 * Why an order of guards can run. Each guard names the facts it `needs` and `gives` (facts.ts), and its `run` takes
 * exactly the facts it needs: the compiler proves PACK_GUARDS and SALE_GUARDS in order (`InOrder`), so moving a
 * guard above what it needs fails to compile. An order is also a value a deployment may configure (the self-test's
 * variants move guards, its deep mutants wrap or drop them), so runGuards checks a configured order the same way
 * once (`orderProblem`) and will not run one whose guard needs a fact no earlier guard gives.
 */
interface Named {
  readonly name: string;
  readonly needs: readonly string[];
  readonly gives: readonly string[];
}

/** `true` when every guard of the tuple `T` needs only facts earlier ones give. */
export type InOrder<T extends readonly unknown[], Given extends string = never> = T extends readonly [infer First, ...infer Rest]
  ? First extends { readonly name: string; readonly needs: readonly (infer N)[]; readonly gives: readonly (infer G extends string)[] }
    ? [N] extends [Given]
      ? InOrder<Rest, Given | G>
      : { readonly misplaced: First['name']; readonly needsFirst: Exclude<N, Given> }
    : never
  : true;

/** Why `guards` cannot run in this order, or null: each guard's needs given by an earlier one, each fact given once. */
export function orderProblem(guards: readonly Named[]): string | null {
  const given = new Map<string, string>();
  for (const guard of guards) {
    const missing = guard.needs.filter((fact) => !given.has(fact));
    if (missing.length) return `the guard ${guard.name} needs ${missing.join(', ')}, which no guard before it gives`;
    for (const fact of guard.gives) {
      const by = given.get(fact);
      if (by !== undefined) return `the guards ${by} and ${guard.name} both give ${fact}`;
      given.set(fact, guard.name);
    }
  }
  return null;
}
