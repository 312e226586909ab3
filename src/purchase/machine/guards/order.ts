import { orderProblem as stepsOrderProblem, type Step } from '../../../steps/order.js';

/** The guards' tables are steps (src/steps/order.ts): the compiler proves PACK_GUARDS and SALE_GUARDS in order. */
export type { InOrder } from '../../../steps/order.js';

/** Why `guards` cannot run in this order, or null: each guard's needs given by an earlier one, each fact given once. */
export function orderProblem(guards: readonly Step[]): string | null {
  return stepsOrderProblem(guards, 'guard');
}
