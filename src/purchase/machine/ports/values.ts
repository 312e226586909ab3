/** The plain values the ports speak in, shared by the card and stablecoin ports. */

export type Awaitable<T> = T | Promise<T>;

/** An amount in the currency's minor units, as the challenge's request carries it ("500", "usd"). */
export interface ChargeAmount {
  readonly amount: string;
  readonly currency: string;
}
