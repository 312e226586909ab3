/**
 * Contenders measured side by side in interleaved rounds: each makes its warm-up, then every round times each of them
 * in turn (the order rotated round by round), so a neighbour that takes the CPU for a while slows one round of every
 * contender rather than all of one. A contender's rate is its median round; p50 and p99 are of every timed call.
 */
import type { Figures } from './ratios.js';

export interface Contender {
  readonly name: string;
  /** Calls made at once within a round (the HTTP clients keep 8 requests in flight). */
  readonly concurrency?: number;
  /** What one call counts for in the rate (two presentations per purchase). */
  readonly unitsPerCall?: number;
  /** Call `i` (each index once over the whole run, warm-up first). */
  run(i: number): Promise<void>;
}

export interface RoundsPlan {
  readonly rounds: number;
  readonly callsPerRound: number;
  /** Untimed calls each contender makes, one at a time, before the first round. */
  readonly warmup: number;
}

/** Calls each contender makes over the plan: what to sign or build before timing. */
export const callsOf = (plan: RoundsPlan) => plan.warmup + plan.rounds * plan.callsPerRound;

export async function inRounds(contenders: readonly Contender[], plan: RoundsPlan): Promise<Figures[]> {
  const next = new Map<Contender, number>(contenders.map((c) => [c, 0]));
  const take = (c: Contender) => {
    const i = next.get(c)!;
    next.set(c, i + 1);
    return i;
  };
  for (const c of contenders) for (let i = 0; i < plan.warmup; i++) await c.run(take(c));
  const rates = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
  const times = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
  for (let round = 0; round < plan.rounds; round++) {
    const order = contenders.map((_, k) => contenders[(k + round) % contenders.length]!);
    for (const c of order) {
      let left = plan.callsPerRound;
      const worker = async () => {
        while (left > 0) {
          left--;
          const i = take(c);
          const t = process.hrtime.bigint();
          await c.run(i);
          times.get(c)!.push(Number(process.hrtime.bigint() - t) / 1000);
        }
      };
      const start = process.hrtime.bigint();
      await Promise.all(Array.from({ length: c.concurrency ?? 1 }, worker));
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      rates.get(c)!.push((plan.callsPerRound * (c.unitsPerCall ?? 1)) / seconds);
    }
  }
  return contenders.map((c) => {
    const sorted = [...times.get(c)!].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const perRound = rates.get(c)!;
    return { name: c.name, perSecond: median(perRound), p50Us: at(0.5), p99Us: at(0.99), rounds: perRound.map(Math.round) };
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
