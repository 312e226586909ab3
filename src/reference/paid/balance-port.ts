import type { Awaitable, PurchaseStore } from '../../purchase/index.js';

/**
 * The agent's usage balance as the paid rails read and spend it, in nano units. The purchase machine credits
 * packs (PurchaseStore.balance); the rails debit calls. `spend` is the one atomic step: it debits only when the
 * balance covers the amount, so two calls racing for the last of a balance cannot both run.
 */
export interface BalancePort {
  balanceOf(agentUrl: string): Awaitable<bigint>;
  /** Debits `nano` and answers true when the balance covers it; answers false and debits nothing otherwise. */
  spend(agentUrl: string, nano: bigint): Awaitable<boolean>;
}

/**
 * The balance over the machine's store: what its grants credited minus what the rails spent here (kept in
 * memory). Spends of one agent run one at a time, so a store that answers with a promise cannot let two
 * spends read the same balance.
 */
export class PurchasedBalanceLedger implements BalancePort {
  private readonly spent = new Map<string, bigint>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly credited: Pick<PurchaseStore, 'balance'>) {}

  async balanceOf(agentUrl: string): Promise<bigint> {
    return BigInt(await this.credited.balance(agentUrl)) - (this.spent.get(agentUrl) ?? 0n);
  }

  spend(agentUrl: string, nano: bigint): Promise<boolean> {
    if (nano < 0n) throw new RangeError(`cannot spend a negative amount (${nano} nano)`);
    const previous = this.queues.get(agentUrl) ?? Promise.resolve();
    const next = previous.then(async () => {
      if ((await this.balanceOf(agentUrl)) < nano) return false;
      this.spent.set(agentUrl, (this.spent.get(agentUrl) ?? 0n) + nano);
      return true;
    });
    const settled = next.catch(() => undefined);
    this.queues.set(agentUrl, settled);
    void settled.then(() => {
      if (this.queues.get(agentUrl) === settled) this.queues.delete(agentUrl);
    });
    return next;
  }

  /** Nano spent by an agent on the rails so far. */
  spentBy(agentUrl: string): bigint {
    return this.spent.get(agentUrl) ?? 0n;
  }
}
