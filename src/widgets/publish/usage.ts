import type { Awaitable, Clock, IdSource } from './ports.js';
import type { PublishRules } from './rules.js';
import type { ToolView } from './manifest-view.js';

/** A call of a published tool that answered (through the widget's MCP endpoint or its agent's HTTP endpoint). */
export interface ToolCall {
  readonly agentId: string;
  /** The widget's author, to whom a free call is attributed. */
  readonly authorId: string;
  readonly tool: Pick<ToolView, 'name' | 'billing'>;
  /** The user the caller's credential maps to; null for a caller without one (an MCP host). */
  readonly callerId: string | null;
  /** Where the call came in: the post's MCP endpoint, the agent's HTTP endpoint, or the widget host page's bridge. */
  readonly via: 'mcp' | 'http' | 'host';
}

/** A payment charge of a billable tool (2.5), as written through the payment-token settlement. */
export interface ChargeRow {
  readonly id: string;
  readonly agentId: string;
  readonly tool: string;
  readonly payerId: string | null;
  readonly currency: string;
  readonly amountNanocents: number;
  readonly at: number;
}

/** An attribution row of a free tool's call (2.5): who called whose tool, nothing charged. */
export interface AttributionRow {
  readonly id: string;
  readonly agentId: string;
  readonly tool: string;
  readonly authorId: string;
  readonly callerId: string | null;
  readonly via: ToolCall['via'];
  readonly at: number;
}

/** Where tool calls are written: the platform's payment-token settlement for charges, and its attribution rows. */
export interface ToolUsageLedger {
  settle(charge: ChargeRow): Awaitable<void>;
  attribute(row: AttributionRow): Awaitable<void>;
}

/** What a tool call wrote, in order: the reference's in-memory ledger (the in-process target reads it). */
export class MemoryToolUsage implements ToolUsageLedger {
  readonly charges: ChargeRow[] = [];
  readonly attributions: AttributionRow[] = [];

  settle(charge: ChargeRow): void {
    this.charges.push(charge);
  }

  attribute(row: AttributionRow): void {
    this.attributions.push(row);
  }
}

export interface UsagePorts {
  readonly ledger: ToolUsageLedger;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly rules: PublishRules;
}

/** Writes one answered tool call: a charge of the tool's price when the rules say it is billable, else an attribution row. */
export async function recordToolCall(call: ToolCall, ports: UsagePorts): Promise<void> {
  const at = ports.clock.now();
  const { tool } = call;
  if (ports.rules.usageOf(tool) === 'charge' && tool.billing) {
    await ports.ledger.settle({
      id: ports.ids.next('charge'),
      agentId: call.agentId,
      tool: tool.name,
      payerId: call.callerId,
      currency: tool.billing.currency,
      amountNanocents: tool.billing.amountNanocents,
      at,
    });
    return;
  }
  await ports.ledger.attribute({
    id: ports.ids.next('attribution'),
    agentId: call.agentId,
    tool: tool.name,
    authorId: call.authorId,
    callerId: call.callerId,
    via: call.via,
    at,
  });
}
