/**
 * Contenders measured side by side in interleaved rounds of equal time: after a round of warm-up each, every round
 * times each contender in turn for `roundSeconds` (the order rotated round by round), so a neighbour that takes the
 * CPU for a while slows one round of every contender rather than all of one, and a fast contender's round is as long
 * as a slow one's. A contender's rate is its median round; p50 and p99 are of every timed call.
 */
import type { Figures } from './ratios.js';

export interface Contender {
  readonly name: string;
  /** Calls made at once within a round (the HTTP clients keep 8 requests in flight). */
  readonly concurrency?: number;
  /** What one call counts for in the rate (two presentations per purchase). */
  readonly unitsPerCall?: number;
  /** The most calls it can make over the run (requests signed beforehand); unbounded when absent. */
  readonly capacity?: number;
  /** Call `i` (each index once over the whole run, warm-up first). */
  run(i: number): Promise<void>;
}

export interface RoundsPlan {
  /** Timed rounds, after one untimed round of warm-up. */
  readonly rounds: number;
  readonly roundSeconds: number;
}

/** Calls a contender running at up to `perSecond` makes over the plan, warm-up round included: what to sign beforehand. */
export const capacityFor = (plan: RoundsPlan, perSecond: number) => Math.ceil((plan.rounds + 1) * plan.roundSeconds * perSecond);

export async function inRounds(contenders: readonly Contender[], plan: RoundsPlan): Promise<Figures[]> {
  const next = new Map<Contender, number>(contenders.map((c) => [c, 0]));
  const rates = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
  const times = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
  const round = async (c: Contender, timed: boolean) => {
    const until = process.hrtime.bigint() + BigInt(Math.round(plan.roundSeconds * 1e9));
    let calls = 0;
    const worker = async () => {
      while (process.hrtime.bigint() < until) {
        const i = next.get(c)!;
        if (c.capacity !== undefined && i >= c.capacity)
          throw new Error(`bench: ${c.name} made all ${c.capacity} calls it was given before its rounds ended: raise its capacity`);
        next.set(c, i + 1);
        const t = process.hrtime.bigint();
        await c.run(i);
        if (timed) times.get(c)!.push(Number(process.hrtime.bigint() - t) / 1000);
        calls++;
      }
    };
    const start = process.hrtime.bigint();
    await Promise.all(Array.from({ length: c.concurrency ?? 1 }, worker));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (timed) rates.get(c)!.push((calls * (c.unitsPerCall ?? 1)) / seconds);
  };
  for (const c of contenders) await round(c, false);
  for (let r = 0; r < plan.rounds; r++) for (let k = 0; k < contenders.length; k++) await round(contenders[(k + r) % contenders.length]!, true);
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
