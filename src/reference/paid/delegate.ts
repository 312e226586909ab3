import { balanceRequiredResult, delegateCompletedResult, type DelegateResult } from '../../purchase/inband.js';
import type { Awaitable, JsonObject, JsonValue } from '../../purchase/index.js';
import type { BalancePort } from './balance-port.js';

export interface DelegateOptions {
  readonly balances: BalancePort;
  /** What one delegated call costs, in nano units. */
  readonly callPriceNano: bigint;
  /** Runs the call once it is funded. */
  readonly run: (call: JsonObject, payer: string) => Awaitable<JsonValue>;
}

/** Runs a delegated call for a payer (null: a caller that names no agent, who has no balance). */
export type Delegate = (payer: string | null, call: JsonObject) => Promise<DelegateResult>;

/**
 * The MCP delegate operation (4.7): when the agent's balance does not cover the call, the answer's status is
 * balance_required and the call does not run; otherwise the call is funded, then run.
 */
export function createDelegate(options: DelegateOptions): Delegate {
  if (options.callPriceNano <= 0n) throw new RangeError('callPriceNano must be positive');
  return async (payer, call) => {
    if (payer === null || !(await options.balances.spend(payer, options.callPriceNano))) return balanceRequiredResult();
    return delegateCompletedResult(await options.run(call, payer));
  };
}

/** An MCP tools/call result carrying the delegate's answer: as structured content and as its JSON text. */
export interface DelegateToolResult {
  readonly content: readonly [{ readonly type: 'text'; readonly text: string }];
  readonly structuredContent: DelegateResult;
}

export function delegateToolResult(result: DelegateResult): DelegateToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}
