/**
 * The run's one spending allowance (`--allow-spend --spend-cap N`). Suite files run in several workers, so the
 * allowance lives in the run's process, beside the fixture host, and every worker asks it before a check pays: the cap
 * holds for the whole run, not per file.
 */

/** What the ledger answers a request to pay `amount`. */
export interface SpendAnswer {
  readonly granted: boolean;
  /** Minor units granted so far in the run, this request included when granted. */
  readonly spentMinorUnits: number;
  readonly capMinorUnits: number;
}

/** What the run spent, for the reports. */
export interface SpendRecord {
  readonly capMinorUnits: number;
  readonly spentMinorUnits: number;
  /** Payments refused for the cap: how many, and what they would have cost. */
  readonly refused: number;
  readonly refusedMinorUnits: number;
}

export class SpendLedger {
  private spent = 0;
  private refused = 0;
  private refusedAmount = 0;

  constructor(private readonly cap: number) {}

  /** Grants `amount` when it fits under the cap; a malformed amount is refused, never granted. */
  request(amount: number): SpendAnswer {
    const fits = Number.isSafeInteger(amount) && amount >= 0 && this.spent + amount <= this.cap;
    if (fits) this.spent += amount;
    else if (Number.isSafeInteger(amount) && amount >= 0) {
      this.refused += 1;
      this.refusedAmount += amount;
    }
    return { granted: fits, spentMinorUnits: this.spent, capMinorUnits: this.cap };
  }

  /** The fixture host's `spend` endpoint: `{ "amount": N }` in, a SpendAnswer out. */
  handle(message: unknown): SpendAnswer {
    const amount = message !== null && typeof message === 'object' ? (message as { amount?: unknown }).amount : undefined;
    return this.request(typeof amount === 'number' ? amount : Number.NaN);
  }

  summary(): SpendRecord {
    return { capMinorUnits: this.cap, spentMinorUnits: this.spent, refused: this.refused, refusedMinorUnits: this.refusedAmount };
  }
}

/** Why a check that would pay `amount` is not run: the cap, what was spent, and the cap that would run it. */
export function overCapReason(amount: number, answer: SpendAnswer): string {
  return `needs a higher --spend-cap: paying ${amount} would pass the run's --spend-cap ${answer.capMinorUnits} (${answer.spentMinorUnits} spent so far); --spend-cap ${answer.spentMinorUnits + amount} or more would run it`;
}

/** One line on what the run spent: for the command line and the reports. */
export function spendWords(record: SpendRecord): string {
  const spent = `spent ${record.spentMinorUnits} of the --spend-cap ${record.capMinorUnits} (minor units, test tokens)`;
  if (record.refused === 0) return spent;
  return `${spent}; ${record.refused} payment(s) refused for the cap: --spend-cap ${record.spentMinorUnits + record.refusedMinorUnits} or more would run them`;
}
