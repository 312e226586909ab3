/**
 * The ratios issue 27 sets goals for, computed from one run of stores.bench.ts (bench/results/stores.json) and
 * written as a markdown table (bench/results/stores.md) that bench/README.md states through scripts/figures.ts.
 */

export interface Figures {
  readonly name: string;
  readonly perSecond: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

export interface StoresResults {
  readonly environment: { readonly node: string; readonly cpus: number; readonly cpu: string; readonly load?: readonly number[] };
  readonly overHttp: readonly Figures[];
  readonly verify: readonly Figures[];
  readonly purchase: readonly Figures[];
  readonly skipped: readonly string[];
}

export interface Ratio {
  readonly path: string;
  readonly of: string;
  /** Undefined when a contender was skipped (its server absent). */
  readonly value: number | undefined;
  readonly goal: number;
}

const rate = (rows: readonly Figures[], name: string) => rows.find((r) => r.name === name)?.perSecond;
const over = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);

/** Every ratio of the issue's table, with its goal. */
export function ratiosOf(results: StoresResults): Ratio[] {
  const inProcess = rate(results.verify, 'memory');
  const purchases = rate(results.purchase, 'memory');
  return [
    { path: 'in-process verification, Redis', of: 'in-process, memory', value: over(rate(results.verify, 'Redis'), inProcess), goal: 0.5 },
    { path: 'verification through `serve` over HTTP, memory', of: 'in-process, memory', value: over(rate(results.overHttp, 'memory'), inProcess), goal: 0.5 },
    { path: 'purchases, SQLite', of: 'purchases, memory', value: over(rate(results.purchase, 'SQLite'), purchases), goal: 0.6 },
    { path: 'purchases, PostgreSQL', of: 'purchases, memory', value: over(rate(results.purchase, 'PostgreSQL'), purchases), goal: 0.3 },
  ];
}

const met = (r: Ratio) => (r.value === undefined ? 'skipped' : r.value >= r.goal ? 'yes' : 'no');

/** The ratios as the console table `npm run bench` ends with. */
export function ratiosText(results: StoresResults): string {
  const rows = ratiosOf(results).map((r) => [r.path, r.of, r.value === undefined ? '-' : r.value.toFixed(2), `>= ${r.goal}`, met(r)]);
  const head = ['path', 'ratio of', 'ratio', 'goal', 'met'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  return [head, ...rows].map((row) => row.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

/** The rates and ratios as a markdown table, generated from the results file. */
export function ratiosMarkdown(results: StoresResults): string {
  const ratios = ratiosOf(results);
  const value = (r: Ratio | undefined) => (r?.value === undefined ? 'skipped' : r.value >= r.goal ? r.value.toFixed(2) : `**${r.value.toFixed(2)}**`);
  const row = (path: string, figures: Figures | undefined, ratio: Ratio | undefined) =>
    `| ${path} | ${figures ? `${thousands(figures.perSecond)}/s` : 'skipped'} | ${ratio ? value(ratio) : '1.00'} | ${ratio ? `>= ${ratio.goal}` : ''} |`;
  const find = (rows: readonly Figures[], name: string) => rows.find((r) => r.name === name);
  const env = results.environment;
  const load = env.load ? `, load average ${env.load.map((l) => l.toFixed(2)).join(' ')} at the start` : '';
  return [
    '| path | rate | ratio | goal |',
    '|---|---|---|---|',
    row('in-process verification, memory store', find(results.verify, 'memory'), undefined),
    row('in-process verification, Redis', find(results.verify, 'Redis'), ratios[0]),
    row('verification through `serve` over HTTP, memory', find(results.overHttp, 'memory'), ratios[1]),
    row('purchases (presentations), memory', find(results.purchase, 'memory'), undefined),
    row('purchases (presentations), SQLite', find(results.purchase, 'SQLite'), ratios[2]),
    row('purchases (presentations), PostgreSQL', find(results.purchase, 'PostgreSQL'), ratios[3]),
    '',
    `One run of \`bench/stores.bench.ts\` (Node ${env.node}, ${env.cpus} × ${env.cpu}${load}); a ratio in bold misses its goal.`,
  ].join('\n');
}
